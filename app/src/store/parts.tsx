/** Small pieces the grid and the product page share: prices, ribbons, image URLs. */
import { type DisplayPrice, LOCAL_MEDIA_PATH, mediaUrlResolver } from "sitefx/catalog/storefront"
import { platformUrl } from "../site.ts"

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

/** Text of an info section, which the platform keeps as HTML. */
export const plainText = (html: string | null | undefined): string =>
  (html ?? "").replace(/<\/p>\s*<p>/g, "\n").replace(/<[^>]*>/g, "").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").trim()
