/**
 * The paging read-ahead of query pages: a stream asks for the next page as soon as the current answer's
 * paging is known, before its items are parsed.
 */
import { PagingMetadata } from "./guards/common.ts"
import type * as W from "./wire/common.ts"

/**
 * The `pagingMetadata` of a query answer, read from the end of its JSON text without parsing the items
 * before it: the platform writes it last (`{"dataItems":[…],"pagingMetadata":{…}}`). Undefined when
 * the text does not end that way; a key of that name inside an item never reads as it, since what
 * follows it would not be one JSON value up to the answer's last brace.
 */
export const peekPagingMetadata = (text: string): W.PagingMetadata | undefined => {
  const key = "\"pagingMetadata\""
  const at = text.lastIndexOf(key)
  if (at < 0) return undefined
  let start = at + key.length
  while (start < text.length && /\s/.test(text[start]!)) start++
  if (text[start] !== ":") return undefined
  let end = text.length - 1
  while (end > start && /\s/.test(text[end]!)) end--
  if (text[end] !== "}") return undefined
  try {
    const value: unknown = JSON.parse(text.slice(start + 1, end))
    return PagingMetadata(value) === undefined ? value as W.PagingMetadata : undefined
  } catch {
    return undefined
  }
}

/** Whether two pagings lead to the same places (the read-ahead one and the parsed answer's). */
export const samePaging = (a: W.PagingMetadata, b: W.PagingMetadata): boolean =>
  (a.hasNext ?? null) === (b.hasNext ?? null) &&
  (a.cursors?.next ?? null) === (b.cursors?.next ?? null) &&
  (a.cursors?.prev ?? null) === (b.cursors?.prev ?? null) &&
  (a.total ?? null) === (b.total ?? null) &&
  (a.count ?? null) === (b.count ?? null)
