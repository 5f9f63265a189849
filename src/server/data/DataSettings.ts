/** Settings of the data engine, fixed when the platform starts. */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"

export const DEFAULT_MAX_PAYLOAD_BYTES = 5 * 1024 * 1024

export interface DataSettingsShape {
  /** Request bodies above this many bytes are refused with 413. */
  readonly maxPayloadBytes: number
}

export class DataSettings extends Context.Service<DataSettings, DataSettingsShape>()("sitefx/server/data/DataSettings") {
  static readonly layer = (settings: Partial<DataSettingsShape> = {}): Layer.Layer<DataSettings> =>
    Layer.succeed(DataSettings, DataSettings.of({ maxPayloadBytes: settings.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES }))
}
