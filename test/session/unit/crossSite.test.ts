/** The likely cause a silent login's `login_required` names: the page and the platform being two sites, said only where it is sure. */
import { assert, describe, it } from "@effect/vitest"
import { crossSite } from "../../../src/session/crossSite.ts"

const two = (page: string, platform: string) => crossSite(page, platform) !== undefined

describe("crossSite", () => {
  it("names both origins and what to do", () => {
    assert.strictEqual(
      crossSite("http://localhost:5173", "http://127.0.0.1:8787/oauth2/authorize?state=s"),
      "likely because this page (http://localhost:5173) and the platform (http://127.0.0.1:8787) are two sites, and the browser does not send the platform's cookie to a frame in another site's page: open both at one scheme and host name"
    )
  })

  it("two loopback names, or an address and a name, are two sites", () => {
    assert.isTrue(two("http://localhost:5173", "http://127.0.0.1:8787"))
    assert.isTrue(two("http://127.0.0.1:5173", "http://localhost:8787"))
    assert.isTrue(two("http://[::1]:5173", "http://127.0.0.1:8787"))
    assert.isTrue(two("https://shop.example.com", "https://10.0.0.5"))
  })

  it("another scheme is another site", () => {
    assert.isTrue(two("http://127.0.0.1:5173", "https://127.0.0.1:8787"))
  })

  it("ports do not make sites", () => {
    assert.isFalse(two("http://localhost:5173", "http://localhost:8787"))
    assert.isFalse(two("http://127.0.0.1:5173", "http://127.0.0.1:8787"))
  })

  it("says nothing where a list of public suffixes would be needed to tell, or the page has no origin", () => {
    assert.isFalse(two("https://shop.example.com", "https://api.example.com"))
    assert.isFalse(two("https://shop.example.com", "https://www.wixapis.com"))
    assert.isFalse(two("null", "http://127.0.0.1:8787"))
  })
})
