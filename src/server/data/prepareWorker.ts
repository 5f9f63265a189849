/**
 * The thread {@link BulkPreparer} hands bulk insert bodies to: each message is one request body (its
 * bytes) and the time to stamp; each answer the prepared items, or `undefined` for a body the request
 * thread must read itself.
 */
import { parentPort } from "node:worker_threads"
import { prepareBulkText } from "./prepare.ts"

const decoder = new TextDecoder()

parentPort?.on("message", (message: { readonly seq: number; readonly body: Uint8Array; readonly now: string }) => {
  parentPort?.postMessage({ seq: message.seq, bulk: prepareBulkText(decoder.decode(message.body), message.now) })
})
