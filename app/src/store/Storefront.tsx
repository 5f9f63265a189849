/** The storefront: a grid of the store's products. */
import { mediaUrlResolver, LOCAL_MEDIA_PATH, displayPrice } from "sitefx/catalog/storefront"
import { useAtomValue } from "sitefx/react"
import { ResultView } from "../shell/Result.tsx"
import { platformUrl } from "../site.ts"
import { productsAtom } from "./atoms.ts"

const imageUrl = mediaUrlResolver(new URL(LOCAL_MEDIA_PATH, platformUrl).href)

export function Storefront(_props: { readonly path: ReadonlyArray<string> }) {
  const products = useAtomValue(productsAtom)
  return (
    <section aria-labelledby="store-title">
      <h1 id="store-title">Store</h1>
      <ResultView result={products} loading="Loading products" failed="The products could not be loaded.">
        {(page) => (
          <ul className="grid" aria-label="Products">
            {page.items.map((p) => {
              const price = displayPrice(p)
              const src = p.media?.mainMedia === undefined ? undefined : imageUrl(p.media.mainMedia, { width: 400, height: 400 })
              return (
                <li key={p.id} className="card">
                  {src === undefined ? null : <img src={src} alt="" width={200} height={200} loading="lazy" />}
                  <h2>{p.name}</h2>
                  {price === undefined ? null : <p className="price">{price.formatted.price}</p>}
                </li>
              )
            })}
          </ul>
        )}
      </ResultView>
    </section>
  )
}
