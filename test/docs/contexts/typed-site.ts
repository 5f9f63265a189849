/**
 * The README's typed example, as a project sets it up: the module `sitefx data types` wrote (here the
 * demo site's, committed in examples/generated, imported from where the docs runner writes the README's
 * blocks) and a visitor's layer on the local platform.
 */
import * as Effect from "effect/Effect"
import { Site } from "sitefx"
import { Collections } from "../../../examples/generated/collections.ts"

const Visitor = Site.layer({ clientId: "sitefx-local-client", baseUrl: "http://127.0.0.1:8787" })

/* fragment */
