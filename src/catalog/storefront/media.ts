/**
 * Image URLs a browser can load, at the size a page asks for. The platform names an image several ways:
 * a media identifier `wix:image://v1/<id>/<filename>#originWidth=…&originHeight=…` (also written without
 * `wix:`), a bare media id (`11062b_…~mv2.jpg`), or a URL on its media host, sometimes protocol-relative
 * (`//static.wixstatic.com/media/<id>`). Its image service sizes an image by path:
 * `https://static.wixstatic.com/media/<id>/v1/fill/w_<w>,h_<h>,…/<name>`.
 */
import type { Media, MediaItem } from "../wire/products.ts"
import { isRecord } from "../../http/isRecord.ts"

/** How the image fills the requested box. */
export type MediaFit =
  /** Covers the whole box, cropping what overflows (centered). */
  | "fill"
  /** Fits inside the box, keeping the whole image. */
  | "fit"

/** The box an image is scaled into, how it fills it, and its quality. */
export interface MediaSize {
  /** Width in CSS pixels times the device pixel ratio you want; whole pixels from 1 to 10 000. */
  readonly width: number
  readonly height: number
  /** `fill` (the default) or `fit`. */
  readonly fit?: MediaFit
  /** JPEG/WebP quality, 1 to 100 (default 80). */
  readonly quality?: number
}

/** Anything that names an image: a URL, a media identifier or id, a product media item, or a product's media. */
export type MediaSource = string | MediaItem | Media | null | undefined

/** Where the platform serves product images. */
export const PLATFORM_MEDIA_BASE = "https://static.wixstatic.com/media"

/** The path under which the local platform serves its images: `<platform origin>/media/<id>`. */
export const LOCAL_MEDIA_PATH = "/media"

const MEDIA_HOST = "static.wixstatic.com"
const MAX_SIDE = 10_000


const whole = (n: unknown, min: number, max: number, fallback: number): number =>
  typeof n === "number" && Number.isFinite(n) ? Math.min(Math.max(Math.round(n), min), max) : fallback

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** A media id that is safe as one path segment (no separators, no dot segments, no spaces or controls). */
const asId = (raw: string): string | undefined => {
  const id = decode(raw)
  return id.length > 0 && id.length <= 512 && id !== "." && id !== ".." && !/[/\\?#\s\u0000-\u001f\u007f]/.test(id)
    ? id
    : undefined
}

/** The text after a prefix, up to the next `/`, `?` or `#`. */
const segmentAfter = (s: string, prefix: string): string => {
  const rest = s.slice(prefix.length)
  const end = rest.search(/[/?#]/)
  return end < 0 ? rest : rest.slice(0, end)
}

const startsWithIgnoringCase = (s: string, prefix: string) => s.slice(0, prefix.length).toLowerCase() === prefix.toLowerCase()

/** What a string names: a platform image (by id), some other URL, or nothing usable. */
type Named = { readonly id: string } | { readonly url: string } | undefined

const readString = (s: string, localBase: string | undefined): Named => {
  const value = s.trim()
  if (value.length === 0) return undefined
  for (const scheme of ["wix:image://v1/", "image://v1/"]) {
    if (startsWithIgnoringCase(value, scheme)) {
      const id = asId(segmentAfter(value, scheme))
      return id === undefined ? undefined : { id }
    }
  }
  if (localBase !== undefined) {
    // under the base, or under the local platform's media path at any origin (the origin a server saw) or none
    const local = value.startsWith(`${localBase}/`)
      ? `${localBase}/`
      : /^(?:https?:\/\/[^/?#]+)?\/media\//i.exec(value)?.[0]
    if (local !== undefined) {
      const id = asId(segmentAfter(value, local))
      return id === undefined ? undefined : { id }
    }
  }
  for (const prefix of [`https://${MEDIA_HOST}/media/`, `http://${MEDIA_HOST}/media/`, `//${MEDIA_HOST}/media/`]) {
    if (startsWithIgnoringCase(value, prefix)) {
      const id = asId(segmentAfter(value, prefix))
      return id === undefined ? undefined : { id }
    }
  }
  if (value.startsWith("//")) return { url: `https:${value}` }
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return /^(https?|data|blob):/i.test(value) ? { url: value } : undefined
  if (value.startsWith("/") || value.startsWith("./") || value.startsWith("../")) return { url: value }
  const id = /^[A-Za-z0-9_~.-]+$/.test(value) ? asId(value) : undefined
  return id === undefined ? undefined : { id }
}

const fromItem = (item: MediaItem, localBase: string | undefined): Named => {
  const image = isRecord(item.image) ? item.image : undefined
  const thumbnail = isRecord(item.thumbnail) ? item.thumbnail : undefined
  const video = isRecord(item.video) ? item.video : undefined
  const candidates = item.mediaType === "video"
    ? [thumbnail?.url, video?.stillFrameMediaId]
    : [image?.url, item.id, thumbnail?.url]
  for (const c of candidates) {
    if (typeof c !== "string") continue
    const named = readString(c, localBase)
    if (named !== undefined) return named
  }
  return undefined
}

const read = (source: unknown, localBase: string | undefined): Named => {
  if (typeof source === "string") return readString(source, localBase)
  if (!isRecord(source)) return undefined
  if ("mainMedia" in source || "items" in source) {
    const media = source as Media
    const items = [media.mainMedia, ...(Array.isArray(media.items) ? media.items : [])]
    for (const item of items) {
      if (!isRecord(item)) continue
      const named = fromItem(item, localBase)
      if (named !== undefined) return named
    }
    return undefined
  }
  return fromItem(source as MediaItem, localBase)
}

/**
 * The platform's media id of an image, from any of the ways the platform names it; `undefined` when
 * the source names no platform image (a URL elsewhere, or nothing).
 *
 * @example
 * mediaId("wix:image://v1/11062b_a1~mv2.jpg/shoe.jpg#originWidth=800&originHeight=600") // "11062b_a1~mv2.jpg"
 */
export const mediaId = (source: MediaSource): string | undefined => {
  const named = read(source, undefined)
  return named !== undefined && "id" in named ? named.id : undefined
}

const sized = (size: MediaSize) => ({
  width: whole(size?.width, 1, MAX_SIDE, 1),
  height: whole(size?.height, 1, MAX_SIDE, 1),
  fit: size?.fit === "fit" ? "fit" as const : "fill" as const,
  quality: whole(size?.quality, 1, 100, 80)
})

/**
 * A URL a browser can load for an image at a requested size. Platform images (identifiers, ids, media
 * host URLs with or without a scheme) become `https://static.wixstatic.com/media/<id>/v1/<fill|fit>/
 * w_<width>,h_<height>,…/<id>`; other URLs come back as they are (protocol-relative ones with `https:`),
 * since only the platform's image service sizes by URL. Sizes are whole pixels from 1 to 10 000.
 * `undefined` when the source names no image.
 *
 * @example
 * import type { Product } from "sitefx/catalog/products"
 * declare const product: Product
 * mediaUrl(product.media?.mainMedia, { width: 600, height: 600 })
 * // "https://static.wixstatic.com/media/11062b_a1~mv2.jpg/v1/fill/w_600,h_600,al_c,q_80,enc_auto/11062b_a1~mv2.jpg"
 * mediaUrl("wix:image://v1/11062b_a1~mv2.jpg/shoe.jpg#originWidth=800&originHeight=600", { width: 300, height: 200, fit: "fit" })
 */
export const mediaUrl = (source: MediaSource, size: MediaSize): string | undefined => {
  const named = read(source, undefined)
  if (named === undefined) return undefined
  if ("url" in named) return named.url
  const { fit, height, quality, width } = sized(size)
  const id = encodeURIComponent(named.id)
  const align = fit === "fill" ? ",al_c" : ""
  return `${PLATFORM_MEDIA_BASE}/${id}/v1/${fit}/w_${width},h_${height}${align},q_${quality},enc_auto/${id}`
}

/**
 * `mediaUrl` for images served from another base, such as the local platform's
 * `<platform origin>/media`: platform images become `<base>/<id>?w=<width>&h=<height>&fit=<fit>`
 * (`&q=<quality>` when one is asked for), whichever way the product names them, and URLs already under
 * the base, or under `/media/` (at any origin, or as a bare path), get the requested size.
 * Other URLs come back as `mediaUrl` gives them.
 *
 * @example
 * import type { Product } from "sitefx/catalog/products"
 * declare const product: Product
 * const imageUrl = mediaUrlResolver(new URL(LOCAL_MEDIA_PATH, "http://localhost:4100").href)
 * imageUrl(product.media, { width: 400, height: 300 })
 * // "http://localhost:4100/media/11062b_a1~mv2.jpg?w=400&h=300&fit=fill"
 */
export const mediaUrlResolver = (baseUrl: string) => {
  const base = String(baseUrl ?? "").trim().replace(/\/+$/, "")
  return (source: MediaSource, size: MediaSize): string | undefined => {
    const named = read(source, base.length > 0 ? base : undefined)
    if (named === undefined) return undefined
    if ("url" in named) return named.url
    const { fit, height, quality, width } = sized(size)
    const q = typeof size?.quality === "number" && Number.isFinite(size.quality) ? `&q=${quality}` : ""
    return `${base}/${encodeURIComponent(named.id)}?w=${width}&h=${height}&fit=${fit}${q}`
  }
}
