/**
 * A browser's part in a hosted checkout, by hand: open the page a redirect session points at, read its
 * form (action and hidden token), post it from the page's own origin, and read where it sends the
 * buyer (redirects are not followed: the test looks at each).
 */
import { assert } from "@effect/vitest"

export interface OpenedPage {
  readonly html: string
  readonly action: string
  readonly token: string
}

/** The checkout page at `url`: its HTML, its form's absolute action and its token. */
export const openCheckoutPage = async (url: string, fetchWith: typeof fetch = fetch): Promise<OpenedPage> => {
  const res = await fetchWith(url, { redirect: "manual" })
  const html = await res.text()
  assert.strictEqual(res.status, 200, html)
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1]
  assert.isDefined(action, "the page has a form")
  assert.isDefined(token, "the form carries a token")
  return { html, action: new URL(action!.replace(/&amp;/g, "&"), url).toString(), token: token! }
}

/** A complete buyer's form. */
export const buyerForm = (email: string): Record<string, string> => ({
  email,
  firstName: "Ada",
  lastName: "Lovelace",
  addressLine1: "12 Analytical Row",
  city: "London",
  postalCode: "N1 7AA",
  country: "GB"
})

/** Posts the page's form, as the page's own origin would. */
export const submitCheckoutPage = (page: OpenedPage, fields: Record<string, string>, fetchWith: typeof fetch = fetch): Promise<Response> =>
  fetchWith(page.action, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(page.action).origin },
    body: new URLSearchParams({ token: page.token, ...fields }).toString()
  })
