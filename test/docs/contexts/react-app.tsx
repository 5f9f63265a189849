// The context of the React guide's components: the module of atoms the guide builds first, and the
// imports a component file has.
import * as DataItems from "sitefx/data/items"
import { AsyncResult, Atom, queryAtoms, sessionAtoms, tabTokenStore, useAtomSet, useAtomValue, writeAtoms } from "sitefx/react"
import { siteSession } from "sitefx/session"

const runtime = Atom.runtime(siteSession({ clientId: "sitefx-local-client", baseUrl: "http://127.0.0.1:8787", tokens: tabTokenStore() }))
const session = sessionAtoms(runtime)
const queries = queryAtoms(runtime)
const writes = writeAtoms(runtime)

/* fragment */

export { AsyncResult, DataItems, queries, session, useAtomSet, useAtomValue, writes }
