/**
 * The site's media, served by the local platform itself: `GET /media/<id>` answers an image for any
 * media id (a square SVG in a colour of its own, labelled with the id's name), so products made with
 * any media id show a picture in a browser without a network. Product answers point their media URLs
 * here (see `replyStored`).
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { createHash } from "node:crypto"
import { notFound } from "../../platform/responses.ts"
import { pathParam, route } from "../../platform/routing.ts"

export const mediaRoutes = HttpRouter.addAll(Effect.succeed([
  route(
    "GET",
    "/media/:id",
    Effect.gen(function*() {
      const id = yield* pathParam("id")
      if (!MEDIA_ID.test(id)) return yield* notFound("No such media")
      return HttpServerResponse.text(mediaSvg(id), {
        contentType: "image/svg+xml",
        headers: { "cache-control": "public, max-age=86400", "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'" }
      })
    })
  )
]))

const escapeXml = (text: string): string =>
  text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "\"": "&quot;", "'": "&apos;" })[c]!)

/** The label of a media id: its name without extension and id prefix, as words. */
const labelOf = (id: string): string =>
  id.replace(/\.[a-z0-9]+$/i, "").replace(/^sitefx-demo-/, "").replace(/[-_~.]+/g, " ").trim().slice(0, 40) || "image"

/** A square image for a media id; the same id always gives the same picture. */
export const mediaSvg = (id: string): string => {
  const hash = createHash("sha256").update(id).digest()
  const hue = Math.round((hash[0]! / 255) * 360)
  const hue2 = (hue + 40 + (hash[1]! % 60)) % 360
  const label = escapeXml(labelOf(id))
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000" role="img" aria-label="${label}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 55% 62%)"/>` +
    `<stop offset="1" stop-color="hsl(${hue2} 60% 38%)"/></linearGradient></defs>` +
    `<rect width="1000" height="1000" fill="url(#g)"/>` +
    `<circle cx="500" cy="430" r="${180 + (hash[2]! % 80)}" fill="hsl(${hue} 70% 92% / 0.35)"/>` +
    `<text x="500" y="820" font-family="system-ui, sans-serif" font-size="64" text-anchor="middle" fill="#fff">${label}</text></svg>`
}

const MEDIA_ID = /^[\w.~-]{1,200}$/
