// Follows every link of a built static site: each href and src of each HTML page that stays on the site
// must name a file of the site, and its #fragment an id (or name) in that page. Links that leave the
// site (http:, https:, mailto:, ...) are not followed: the machines that build the docs have no network.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative } from "node:path"

const htmlFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? htmlFiles(path) : entry.name.endsWith(".html") ? [path] : []
  })

const ATTRIBUTE = /\s(?:href|src)\s*=\s*("([^"]*)"|'([^']*)')/g
const ANCHOR = /\s(?:id|name)\s*=\s*("([^"]*)"|'([^']*)')/g

const decode = (text) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

const unescape = (text) => text.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">")

/** The file a site path names: the path itself, its index.html, or the page VitePress writes without its extension. */
const fileOf = (site, path) => {
  const full = join(site, path)
  if (existsSync(full) && statSync(full).isFile()) return full
  if (existsSync(join(full, "index.html"))) return join(full, "index.html")
  if (existsSync(`${full}.html`)) return `${full}.html`
  return undefined
}

/** Every broken link of the site at `site`, as "page → link (why)". */
export const checkLinks = (site) => {
  const anchors = new Map()
  const anchorsOf = (file) => {
    if (!anchors.has(file)) {
      const text = readFileSync(file, "utf8")
      anchors.set(file, new Set([...text.matchAll(ANCHOR)].map((m) => decode(unescape(m[2] ?? m[3] ?? "")))))
    }
    return anchors.get(file)
  }
  const broken = []
  for (const page of htmlFiles(site)) {
    const text = readFileSync(page, "utf8")
    for (const match of text.matchAll(ATTRIBUTE)) {
      const link = unescape(match[2] ?? match[3] ?? "").trim()
      if (link === "" || link === "#" || /^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith("//")) continue
      const [beforeHash, fragment] = link.split("#", 2)
      const path = (beforeHash ?? "").split("?")[0] ?? ""
      const where = `${relative(site, page)} → ${link}`
      const target = path === "" ? page : fileOf(site, path.startsWith("/") ? decode(path) : relative(site, join(dirname(page), decode(path))))
      if (target === undefined) {
        broken.push(`${where} (no such file)`)
        continue
      }
      if (fragment !== undefined && fragment !== "" && target.endsWith(".html") && !anchorsOf(target).has(decode(fragment))) {
        broken.push(`${where} (no #${decode(fragment)} there)`)
      }
    }
  }
  return broken
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const site = process.argv[2] ?? "docs/.vitepress/dist"
  const broken = checkLinks(site)
  for (const line of broken) console.log(line)
  console.log(`${broken.length} broken links in ${site}`)
  process.exit(broken.length > 0 ? 1 : 0)
}
