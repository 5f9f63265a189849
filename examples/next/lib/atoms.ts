// The page's atoms: the same module for the browser (client components read them) and the server
// (site.dehydrate loads them before the page is sent, so the browser asks nothing for them).
import * as Products from "sitefx/catalog/products"
import { cookieTokenStore } from "sitefx/next/browser"
import { Atom, queryAtoms, sessionAtoms } from "sitefx/react"
import { siteSession } from "sitefx/session"

export const runtime = Atom.runtime(siteSession({
  clientId: process.env.NEXT_PUBLIC_SITEFX_CLIENT_ID!,
  baseUrl: process.env.NEXT_PUBLIC_SITEFX_BASE_URL,
  tokens: cookieTokenStore()
}))
export const session = sessionAtoms(runtime)
export const queries = queryAtoms(runtime)
export const newProducts = queries.products(Products.query().ascending("name").limit(6))
