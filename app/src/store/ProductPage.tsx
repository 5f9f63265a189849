/**
 * A product page (`#/store/product/<slug>?Color=Navy&Size=M`): the shopper's choices, kept in the URL,
 * drive everything through sitefx's storefront helpers: which variant (`resolveVariant`), which choices
 * are still on offer and which are sold out (`availableChoices`, out-of-stock choices disabled and said
 * so), the stock (`stockOf`), the price (`displayPrice`, a sale shown with the old price) and the image
 * (the chosen color's own picture); the chosen variant goes in the cart from here (cart/AddToCart.tsx).
 */
import type { Product } from "sitefx/catalog/products"
import { availableChoices, type ChoiceAvailability, displayPrice, type OptionAvailability, resolveVariant, type StockAnswer, stockOf, type VariantResolution } from "sitefx/catalog/storefront"
import { useAtomValue } from "sitefx/react"
import { useEffect, useMemo, useRef } from "react"
import { ResultView } from "../shell/Result.tsx"
import { href } from "../shell/router.ts"
import { productAtom } from "./atoms.ts"
import { AddToCart } from "./cart/AddToCart.tsx"
import { hashOf, paramsOf, replaceParams, useHashQuery } from "./params.ts"
import { imageUrl, PriceTag, Ribbon } from "./parts.tsx"

/** Text of an info section, which the platform keeps as HTML. */
const plainText = (html: string | null | undefined): string =>
  (html ?? "").replace(/<\/p>\s*<p>/g, "\n").replace(/<[^>]*>/g, "").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").trim()

export function ProductPage(props: { readonly slug: string }) {
  const product = useAtomValue(productAtom(props.slug))
  return (
    <section className="product-page" aria-labelledby="product-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <a href={href("store")}>Store</a>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{product._tag === "Success" ? product.value.name : props.slug}</span>
      </nav>
      <ResultView result={product} loading="Loading the product" failed="The product could not be loaded.">
        {(p) => <ProductDetails product={p} slug={props.slug} />}
      </ResultView>
    </section>
  )
}

/** The shopper's choices from the URL, only for options the product has (by name, ignoring case). */
const chosenOf = (product: Product, query: string): Record<string, string> => {
  const names = new Map((product.productOptions ?? []).map((o) => [(o.name ?? "").toLowerCase(), o.name ?? ""]))
  const chosen: Record<string, string> = {}
  for (const [key, value] of paramsOf(query)) {
    const name = names.get(key.toLowerCase())
    if (name !== undefined && value !== "") chosen[name] = value
  }
  return chosen
}

function ProductDetails(props: { readonly product: Product; readonly slug: string }) {
  const p = props.product
  const query = useHashQuery()
  const chosen = useMemo(() => chosenOf(p, query), [p, query])
  const resolution = resolveVariant(p, chosen)
  const options = availableChoices(p, chosen)
  const stock = stockOf(p, chosen)
  const price = displayPrice(p, resolution._tag === "Resolved" ? resolution.variant : undefined)
  // the first chosen choice with a picture of its own (a color), else the product's
  const choiceMedia = options.flatMap((o) => o.choices.filter((c) => c.selected && c.choice.media?.mainMedia !== undefined))[0]
  const picture = imageUrl(choiceMedia?.choice.media?.mainMedia ?? p.media?.mainMedia, { width: 800, height: 800 })
  const title = useRef<HTMLHeadingElement>(null)
  useEffect(() => title.current?.focus({ preventScroll: true }), [props.slug])

  const choose = (option: string, label: string) => replaceParams(["store", "product", props.slug], { ...chosen, [option]: label })

  return (
    <div className="product">
      <div className="product-media">
        {picture === undefined ? null : (
          <img
            src={picture}
            alt={[p.name, ...Object.values(resolution._tag === "Resolved" || resolution._tag === "Incomplete" ? resolution.choices : {})].join(", ")}
            width={400}
            height={400}
          />
        )}
      </div>
      <div className="product-info">
        <div className="card-facts">
          <Ribbon text={p.ribbon} />
          {p.brand ? <a className="product-brand" href={hashOf(["store"], { brand: p.brand })}>{p.brand}</a> : null}
        </div>
        <h1 id="product-title" tabIndex={-1} ref={title}>{p.name}</h1>
        <PriceTag price={price} className="product-price" />
        {options.length === 0 ? null : (
          <div className="options">
            {options.map((o) => <OptionChoices key={o.name} option={o} choose={choose} />)}
          </div>
        )}
        <p className={`stock-note ${stock.inStock ? "in" : "out"}`} role="status" aria-live="polite" id="product-stock">
          {stockText(stock, resolution)}
        </p>
        <AddToCart product={p} resolution={resolution} stock={stock} />
        {p.description ? <p className="description">{p.description}</p> : null}
        {(p.additionalInfoSections ?? []).length === 0 ? null : (
          <dl className="info-sections">
            {(p.additionalInfoSections ?? []).map((s, i) => (
              <div key={i}>
                <dt>{s.title}</dt>
                <dd>{plainText(s.description)}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
    </div>
  )
}

/** What the stock line says, for the variant when every option is chosen, else for what is chosen so far. */
const stockText = (stock: StockAnswer, resolution: VariantResolution): string => {
  const what = resolution._tag === "Incomplete" && resolution.missing.length > 0 ? ` Choose ${resolution.missing.join(" and ")}.` : ""
  if (stock.status === "PREORDER") return `Available for preorder.${what}`
  if (!stock.inStock) return stock.level === "variant" ? "Sold out in this combination." : `Sold out.${what}`
  if (stock.level === "variant") {
    return stock.quantity !== undefined && stock.quantity <= 5 ? `In stock: only ${stock.quantity} left.` : "In stock."
  }
  if (stock.status === "PARTIALLY_OUT_OF_STOCK") return `In stock in some options.${what}`
  return `In stock.${what}`
}

/** Why a choice is not offered, in words next to it. */
const choiceNote = (c: ChoiceAvailability): string | undefined =>
  c.state === "out-of-stock"
    ? "sold out"
    : c.state === "not-offered-with"
    ? `not with ${Object.values(c.conflictsWith).join(" and ")}`
    : c.state === "unavailable"
    ? "unavailable"
    : undefined

function OptionChoices(props: { readonly option: OptionAvailability; readonly choose: (option: string, label: string) => void }) {
  const o = props.option
  const name = `option-${o.name}`
  return (
    <fieldset className="option">
      <legend>
        {o.name}
        {o.selected === undefined ? null : <span className="option-selected">: {o.selected}</span>}
      </legend>
      <div className="choices">
        {o.choices.map((c) => {
          const id = `${name}-${c.label}`.replace(/\s+/g, "-")
          const note = choiceNote(c)
          return (
            <div key={c.label} className={`choice${c.purchasable ? "" : " unavailable"}`}>
              <input
                type="radio"
                id={id}
                name={name}
                value={c.label}
                checked={c.selected}
                disabled={!c.purchasable}
                onChange={() => props.choose(o.name, c.label)}
              />
              <label htmlFor={id}>
                {o.optionType === "color" && c.choice.value ? <span className="swatch" style={{ background: c.choice.value }} aria-hidden="true" /> : null}
                {c.label}
                {note === undefined ? null : <span className="choice-note"> ({note})</span>}
              </label>
            </div>
          )
        })}
      </div>
    </fieldset>
  )
}
