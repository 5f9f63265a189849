// The context of the Next.js guide's files: the two modules the guide writes first (lib/site.ts on the
// server, lib/atoms.ts for both sides) and the imports an App Router file has.
import { cacheLife } from "next/cache"
import Link from "next/link"
import { connection } from "next/server"
import { type ReactElement, type ReactNode, Suspense } from "react"
import * as Effect from "effect/Effect"
import * as Products from "sitefx/catalog/products"
import * as DataItems from "sitefx/data/items"
import { DataEventTypes, Webhooks } from "sitefx/events"
import { nextSite } from "sitefx/next"
import { cookieTokenStore } from "sitefx/next/browser"
import { AsyncResult, Atom, type DehydratedQueries, queryAtoms, RegistryProvider, sessionAtoms, useAtomSet, useAtomValue } from "sitefx/react"
import { siteSession } from "sitefx/session"

const site = nextSite({ clientId: "sitefx-local-client", baseUrl: "http://127.0.0.1:8787" })
const runtime = Atom.runtime(siteSession({ clientId: "sitefx-local-client", baseUrl: "http://127.0.0.1:8787", tokens: cookieTokenStore() }))
const session = sessionAtoms(runtime)
const queries = queryAtoms(runtime)
const newProducts = queries.products(Products.query().ascending("name").limit(6))
declare function ProductGrid(): ReactElement

/* fragment */

export {
  AsyncResult,
  cacheLife,
  connection,
  DataEventTypes,
  DataItems,
  type DehydratedQueries,
  Effect,
  Link,
  newProducts,
  ProductGrid,
  queries,
  type ReactNode,
  RegistryProvider,
  runtime,
  session,
  site,
  Suspense,
  useAtomSet,
  useAtomValue,
  Webhooks
}
