/**
 * One line per log event for a terminal: `07:41:02 POST /oauth2/token 200`, outbox messages and
 * warnings as they come.
 */
import * as Cause from "effect/Cause"
import * as Logger from "effect/Logger"
import * as References from "effect/References"

const text = (value: unknown): string =>
  typeof value === "string" ? value : value instanceof Error ? value.message : JSON.stringify(value)

export const terminalLogger = Logger.make(({ message, logLevel, date, cause, fiber }) => {
  const parts: ReadonlyArray<unknown> = Array.isArray(message) ? message : [message]
  const time = date.toTimeString().slice(0, 8)
  const annotations = fiber.getRef(References.CurrentLogAnnotations)
  let line: string
  if (parts[0] === "Sent HTTP response") {
    line = `${time} ${text(annotations["http.method"])} ${text(annotations["http.url"])} ${text(annotations["http.status"])}`
  } else {
    const level = logLevel === "Info" ? "" : `${logLevel.toUpperCase()} `
    line = `${time} ${level}${parts.map(text).join(" ")}`
    if (cause.reasons.length > 0) line += `\n${Cause.pretty(cause)}`
  }
  if (logLevel === "Error" || logLevel === "Fatal" || logLevel === "Warn") console.error(line)
  else console.log(line)
})

export const terminalLoggerLayer = Logger.layer([terminalLogger])
