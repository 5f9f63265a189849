/**
 * Why a silent login found no session, when that can be told for sure. The platform's session lives in
 * a cookie of the platform's site, and a browser keeps a site's cookies from a frame in another site's
 * page (a same-site-only cookie always; any cookie where third-party cookies are blocked). A site is a
 * scheme and a registrable domain, and ports do not make sites: a dev server at `localhost:5173` and a
 * platform at `127.0.0.1:8787` are two sites, the same two at one host name are one.
 */

/** A host name that is its own site: an IP address or localhost (no registrable domain joins it to another name). */
const ownSite = (host: string): boolean => host === "localhost" || host.startsWith("[") || /^[\d.]+$/.test(host)

/**
 * The likely cause of a `login_required` when the page and the platform are surely two sites (two
 * schemes, or two host names one of which is an address or localhost); undefined when they are one
 * site or it cannot be told without a list of public suffixes.
 *
 * @example
 * crossSite("http://localhost:5173", "http://127.0.0.1:8787/oauth2/authorize") // "likely because this page (http://localhost:5173) ..."
 */
export const crossSite = (page: string, platform: string): string | undefined => {
  let a: URL, b: URL
  try {
    a = new URL(page) // "null" for a sandboxed page or a file
    b = new URL(platform)
  } catch {
    return undefined
  }
  if (a.protocol === b.protocol && (a.hostname === b.hostname || !(ownSite(a.hostname) || ownSite(b.hostname)))) return undefined
  return `likely because this page (${a.origin}) and the platform (${b.origin}) are two sites, and the browser does not send ` +
    `the platform's cookie to a frame in another site's page: open both at one scheme and host name`
}
