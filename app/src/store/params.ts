/**
 * The store's state in the location's hash, after the route: `#/store?q=tee&sort=price-asc` and
 * `#/store/product/zip-hoodie?Color=Navy&Size=M`. Every search, filter, sort and choice has a URL that
 * survives a reload and can be shared; changing one replaces the current history entry, so typing a search
 * does not fill the back button.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from "react"

const subscribe = (onChange: () => void) => {
  window.addEventListener("hashchange", onChange)
  return () => window.removeEventListener("hashchange", onChange)
}

const queryOf = (hash: string): string => {
  const at = hash.indexOf("?")
  return at < 0 ? "" : hash.slice(at + 1)
}

/** The hash's parameters as text (stable between renders, so it can key memos). */
export const useHashQuery = (): string => useSyncExternalStore(subscribe, () => queryOf(window.location.hash), () => "")

/** The hash's parameters as text, now (for handlers: what the URL says at this moment, not at the last render). */
export const currentQuery = (): string => queryOf(window.location.hash)

/** The parameters of a hash query text. */
export const paramsOf = (query: string): URLSearchParams => new URLSearchParams(query)

/** The hash of a route and its parameters, without empty ones. */
export const hashOf = (path: ReadonlyArray<string>, params: Readonly<Record<string, string | undefined>>): string => {
  const search = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") search.set(k, v)
  const text = search.toString()
  return `#/${path.map(encodeURIComponent).join("/")}${text === "" ? "" : `?${text}`}`
}

/**
 * Replaces the route's parameters, keeping the history entry. The screen follows at once (within the
 * input's own event, so a radio or checkbox shows its new state without a flicker back): the hash is
 * replaced in place and every reader of the location is told.
 */
export const replaceParams = (path: ReadonlyArray<string>, params: Readonly<Record<string, string | undefined>>): void => {
  const next = hashOf(path, params)
  if (next === window.location.hash) return
  const old = window.location.href
  window.history.replaceState(window.history.state, "", next)
  window.dispatchEvent(new HashChangeEvent("hashchange", { oldURL: old, newURL: window.location.href }))
}

/** A text field whose value reaches the URL a moment after typing stops (at once on submit). */
export function useDebounced(value: string, commit: (value: string) => void): readonly [string, (v: string) => void, () => void, () => void] {
  const [text, setText] = useState(value)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const latest = useRef(commit)
  latest.current = commit
  // the URL changed elsewhere (a link, "Clear filters", back): show it
  useEffect(() => setText(value), [value])
  useEffect(() => () => clearTimeout(timer.current), [])
  const change = (v: string) => {
    setText(v)
    clearTimeout(timer.current)
    timer.current = setTimeout(() => latest.current(v), 300)
  }
  const flush = () => {
    clearTimeout(timer.current)
    latest.current(text)
  }
  // what was typed and not yet committed is dropped: the URL is about to say something else (another field)
  const cancel = () => clearTimeout(timer.current)
  return [text, change, flush, cancel] as const
}

