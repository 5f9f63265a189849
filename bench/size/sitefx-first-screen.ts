// A page's first script: the session's token and a product query's first page, before the client loads (no Effect).
import { firstScreen, products } from "sitefx/first-screen"

const first = firstScreen({ clientId: "my-client-id" })
first.query(products({ limit: 24, sort: [{ fieldName: "createdDate", order: "DESC" }] })).then(console.log)
first.dehydrated().then(console.log)
