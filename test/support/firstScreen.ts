/** What the tests of `sitefx/first-screen` share: the tabs' storage in memory, and a fetch that records what it sends. */

/** A Storage in memory: the tabs' shared localStorage of a test. */
export class MemoryStorage {
  readonly items = new Map<string, string>()
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value))
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
}

/** What went on the wire: method, URL, body and the Authorization header. */
export interface Sent {
  readonly method: string
  readonly url: string
  readonly body: string | undefined
  readonly authorization: string | undefined
}

/** A fetch that records what it sends, then sends it. */
export const recording = () => {
  const sent: Array<Sent> = []
  const fetch: typeof globalThis.fetch = (input, init) => {
    const headers = new Headers(init?.headers)
    sent.push({ method: init?.method ?? "GET", url: String(input), body: typeof init?.body === "string" ? init.body : undefined, authorization: headers.get("authorization") ?? undefined })
    return globalThis.fetch(input, init)
  }
  return { sent, fetch }
}
