/** Small pieces the grid and the product page share: prices, ribbons, image URLs. */
import { type DisplayPrice, LOCAL_MEDIA_PATH, mediaUrlResolver } from "sitefx/catalog/storefront"
import { platformUrl } from "../platform.ts"

/** Image URLs at a size, from the platform that serves the app (it draws the demo store's images itself). */
export const imageUrl = mediaUrlResolver(new URL(LOCAL_MEDIA_PATH, platformUrl).href)

/** A price as shoppers read it: on sale, the price after discount, the old price struck through, and how much is off. */
export function PriceTag(props: { readonly price: DisplayPrice | undefined; readonly className?: string }) {
  const p = props.price
  if (p === undefined) return null
  const className = `price${props.className === undefined ? "" : ` ${props.className}`}`
  if (!p.onSale) return <p className={className}>{p.formatted.price}</p>
  return (
    <p className={className}>
      <span className="visually-hidden">Sale price </span>
      <span className="sale-price">{p.formatted.discountedPrice}</span>{" "}
      <span className="visually-hidden">, was </span>
      <s className="was-price">{p.formatted.price}</s>{" "}
      <span className="discount">{p.discount.percent}% off</span>
    </p>
  )
}

/** A product's ribbon ("Sale", "New", ...). */
export function Ribbon(props: { readonly text: string | null | undefined }) {
  return props.text === undefined || props.text === null || props.text === "" ? null : <span className="ribbon">{props.text}</span>
}

/** The brand filter's select: every brand once they are known, else the chosen one; `error` says why they are not. */
export function BrandSelect(props: { readonly brand: string; readonly brands: ReadonlyArray<string> | undefined; readonly error?: string; readonly onChange: (brand: string) => void }) {
  const { brand, brands, error } = props
  return (
    <div className="field">
      <label htmlFor="store-brand">Brand</label>
      <select id="store-brand" value={brand} onChange={(e) => props.onChange(e.target.value)} aria-describedby={error === undefined ? undefined : "store-brand-error"}>
        <option value="">All brands</option>
        {brands !== undefined ? brands.map((b) => <option key={b} value={b}>{b}</option>) : brand === "" ? null : <option value={brand}>{brand}</option>}
      </select>
      {error === undefined ? null : <p id="store-brand-error" className="field-note">The brands could not be loaded: {error}</p>}
    </div>
  )
}
