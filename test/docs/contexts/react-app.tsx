// The context of the React guide's components: the module of atoms the guide builds first, and the
// imports a component file has.
import * as Effect from "effect/Effect"
import * as Products from "sitefx/catalog/products"
import * as DataItems from "sitefx/data/items"
import { AsyncResult, Atom, queryAtoms, sessionAtoms, tabTokenStore, useAtomSet, useAtomValue, writeAtoms } from "sitefx/react"
import { OAuthError, siteSession } from "sitefx/session"
import { useEffect } from "react"

const runtime = Atom.runtime(siteSession({ clientId: "sitefx-local-client", baseUrl: "http://127.0.0.1:8787", tokens: tabTokenStore() }))
const session = sessionAtoms(runtime)
const queries = queryAtoms(runtime)
const writes = writeAtoms(runtime)

/* fragment */

export { AsyncResult, Atom, DataItems, Effect, OAuthError, Products, queries, session, useAtomSet, useAtomValue, useEffect, writes }
