// Every page view: visitor tokens for a new visitor, a renewal shortly before expiry, into the cookies.
import { site } from "./lib/site"

export const proxy = site.proxy

export const config = {
  matcher: ["/((?!api|_next/static|_next/image|favicon.ico).*)"]
}
