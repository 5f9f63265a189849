/** Guards of the local platform's answers about collections' sandboxes. */
import * as G from "../../http/guard.ts"

export const SandboxState = G.struct({ dataCollectionId: G.string, liveItems: G.number, sandboxItems: G.number })
export const SandboxesListResponse = G.struct({ sandboxes: G.array(SandboxState) })
export const SandboxResponse = G.struct({ sandbox: SandboxState })
export const SyncResponse = G.struct({ sandbox: SandboxState, itemsCopied: G.number })
