/** The brand filter with the store's brands (catalog v3 brands, which the products' `brand` names), in a chunk of its own. */
import * as Stream from "effect/Stream"
import { Brands } from "sitefx/catalog/entities"
import { AsyncResult, useAtomValue } from "sitefx/react"
import { messageOf } from "../shell/Result.tsx"
import { runtime } from "../site.ts"
import { BrandSelect } from "./parts.tsx"

const brandsAtom = runtime.atom(
  Brands.query().ascending("name").stream.pipe(
    Stream.map((brand) => brand.name ?? ""),
    Stream.filter((name) => name !== ""),
    Stream.runCollect
  )
)

export function BrandField(props: { readonly brand: string; readonly onChange: (brand: string) => void }) {
  const brands = useAtomValue(brandsAtom)
  return (
    <BrandSelect
      brand={props.brand}
      brands={AsyncResult.isSuccess(brands) ? brands.value : undefined}
      {...(brands._tag === "Failure" ? { error: messageOf(brands.cause) } : {})}
      onChange={props.onChange}
    />
  )
}
