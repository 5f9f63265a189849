/** The platform's hosts, when the configuration names none: the API host and the edge (CDN) host of module calls. */
export const DEFAULT_API_URL = "https://www.wixapis.com"
export const DEFAULT_EDGE_URL = "https://edge.wixapis.com"

/** A URL without its trailing slashes. */
export const trimSlash = (url: string) => url.replace(/\/+$/, "")
