/** The storefront's atoms: the products of a page of the grid. */
import { Atom } from "effect/reactivity"
import * as Products from "sitefx/catalog/products"
import { runtime } from "../site.ts"

/** The first page of the store's products, newest first. */
export const productsAtom = runtime.atom(Products.query().descending("lastUpdated").limit(24).find)

export { Atom }
