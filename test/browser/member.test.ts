/**
 * The member area in Chromium, served by the platform as `npm start` serves it: registration verified by
 * the emailed code (read from the platform's outbox), sign-out and sign-in again from the keyboard, a
 * session that survives a reload, login on the platform's own page (redirect with PKCE), silent login
 * with the session the browser has there, an MFA challenge passed with a TOTP code, a password reset
 * through the emailed link, and a captcha the site asks for. Screenshots at phone and desktop sizes.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { Page } from "playwright-core"
import { AuthorizeAgent } from "../../src/session/AuthorizeAgent.ts"
import { Session } from "../../src/session/Session.ts"
import { siteSession } from "../../src/session/SiteSession.ts"
import { totp } from "../support/totp.ts"
import { browserSession, DESKTOP, PHONE, screenshot } from "./support.ts"

const session = browserSession()

/** A page whose waits fail before the test's own timeout, naming what they waited for. */
const open = async (viewport: typeof DESKTOP | typeof PHONE) => {
  const opened = await session.open(viewport)
  opened.page.setDefaultTimeout(20_000)
  return opened
}

const DEMO = { email: "demo@sitefx.dev", password: "sitefx-demo" }

/** Calls a dev endpoint of the platform (as a script: no page origin) and returns its JSON. */
const dev = async <T = any>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
  const res = await fetch(`${session.platform.url}/_sitefx${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`dev ${path}: ${res.status} ${text}`)
  return (text === "" ? {} : JSON.parse(text)) as T
}

const settings = (patch: Record<string, unknown>) => dev("/settings", { method: "PATCH", body: patch })

/** The newest outbox message of a kind to an address. */
const lastMessage = async (to: string, kind: string) => {
  const { messages } = await dev<{ messages: Array<{ kind: string; code?: string; link?: string }> }>(`/outbox?to=${encodeURIComponent(to)}`)
  const found = messages.filter((m) => m.kind === kind)
  assert.isAbove(found.length, 0, `a ${kind} message to ${to}`)
  return found[found.length - 1]!
}

let counter = 0
const uniqueEmail = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}@example.com`

/** A member made through sitefx itself, as another client would. */
const register = (email: string, password: string) =>
  Effect.runPromise(
    Session.use((s) => s.register({ email, password })).pipe(
      Effect.provide(siteSession({ baseUrl: session.platform.url, clientId: "sitefx-local-client", authorizeAgent: AuthorizeAgent.http() }))
    )
  )

const memberId = async (email: string) =>
  (await dev<{ identities: Array<{ id: string }> }>(`/members?email=${encodeURIComponent(email)}`)).identities[0]!.id

const signedIn = (page: Page, email: string) => page.getByRole("status").filter({ hasText: `Signed in as ${email}` }).waitFor()

const signInForm = (page: Page) => page.getByRole("form", { name: "Sign in" })

const signIn = async (page: Page, email: string, password: string) => {
  const form = signInForm(page)
  await form.getByLabel("Email").fill(email)
  await form.getByLabel("Password").fill(password)
  await form.getByRole("button", { name: "Sign in" }).click()
}

const signOut = async (page: Page) => {
  await page.getByRole("main").getByRole("button", { name: "Sign out" }).click()
  // the platform's logout page sends the browser back to the member area
  await signInForm(page).waitFor()
  assert.match(page.url(), /#\/member$/)
}

/**
 * Chromium logs every response with an error status as a console error, whoever handles it. Some flows
 * below provoke the platform's refusals on purpose (a wrong password: 401; a wrong code, a missing
 * captcha: 400); those statuses, and nothing else, are expected there.
 */
const unexpected = (problems: ReadonlyArray<string>, expected: ReadonlyArray<number> = []) => {
  return problems.filter((p) => !expected.some((status) => p.includes(`Failed to load resource: the server responded with a status of ${status}`)))
}

// a busy machine (two cores shared) can be slow: generous timeouts, never needed when it is quiet
describe("member area in Chromium", { timeout: 60_000 }, () => {
  it("register, verify by the emailed code, reload, sign out, and sign in again from the keyboard", async () => {
    const { context, page, problems } = await open(DESKTOP)
    const email = uniqueEmail("verify")
    await settings({ emailVerification: true })
    try {
      await page.goto(`${session.platform.url}/#/member`)
      await signInForm(page).waitFor()
      await screenshot(page, "member-sign-in-desktop")
      await page.getByRole("link", { name: "Create an account" }).click()
      const form = page.getByRole("form", { name: "Create an account" })
      await form.getByLabel("Email").fill(email)
      await form.getByLabel("Password").fill("a long enough password")
      await form.getByLabel("Nickname (optional)").fill("Verifier")
      await screenshot(page, "member-register-desktop")
      await form.getByRole("button", { name: "Create account" }).click()

      const code = page.getByLabel("Verification code")
      await code.waitFor()
      await screenshot(page, "member-email-code-desktop")
      await code.fill((await lastMessage(email, "EMAIL_VERIFICATION")).code!)
      await page.getByRole("button", { name: "Verify" }).click()
      await signedIn(page, email)
      assert.strictEqual(await page.getByText("Verifier", { exact: true }).count(), 1)
      await screenshot(page, "member-account-desktop")

      // the session survives a reload (the tokens are in this browser's storage)
      await page.reload()
      await signedIn(page, email)

      await signOut(page)
      // from the keyboard: the fields in order, Enter submits
      await signInForm(page).getByLabel("Email").focus()
      await page.keyboard.type(email)
      await page.keyboard.press("Tab")
      await page.keyboard.type("a long enough password")
      await page.keyboard.press("Enter")
      await signedIn(page, email)
      assert.deepStrictEqual(problems, [])
    } finally {
      await settings({ emailVerification: false })
      await context.close()
    }
  })

  it("a wrong password is said plainly and the form stays (phone)", async () => {
    const { context, page, problems } = await open(PHONE)
    try {
      await page.goto(`${session.platform.url}/#/member`)
      await signIn(page, DEMO.email, "not the password")
      await page.getByRole("alert").filter({ hasText: "Wrong email or password." }).waitFor()
      await screenshot(page, "member-sign-in-refused-phone")
      await signIn(page, DEMO.email, DEMO.password)
      await signedIn(page, DEMO.email)
      await screenshot(page, "member-account-phone")
      assert.deepStrictEqual(unexpected(problems, [401]), [])
    } finally {
      await context.close()
    }
  })

  it("login on the platform's page (redirect with PKCE), then silent login with the browser's platform session", async () => {
    const { context, page, problems } = await open(DESKTOP)
    try {
      await page.goto(`${session.platform.url}/#/member`)
      await page.getByRole("button", { name: "Sign in on the platform's page" }).click()
      // the platform's own login page
      await page.waitForURL(/\/oauth2\/authorize\?/)
      await page.getByLabel("Email").fill(DEMO.email)
      await page.getByLabel("Password").fill(DEMO.password)
      await page.getByRole("button", { name: "Sign in" }).click()
      await signedIn(page, DEMO.email)
      // the code and state have left the address
      assert.strictEqual(new URL(page.url()).search, "")
      assert.match(page.url(), /#\/member$/)

      // the tokens are gone from this browser, the platform still knows it: a silent login, no form
      await page.evaluate(() => localStorage.clear())
      await page.reload()
      await signInForm(page).waitFor()
      await page.getByRole("button", { name: "Continue with your platform session" }).click()
      await signedIn(page, DEMO.email)

      // signing out ends the platform's session too: the silent login has nothing to continue
      await signOut(page)
      await page.getByRole("button", { name: "Continue with your platform session" }).click()
      await page.getByRole("status").filter({ hasText: "The platform has no session for this browser" }).waitFor()
      await screenshot(page, "member-silent-refused-desktop")
      assert.deepStrictEqual(problems, [])
    } finally {
      await context.close()
    }
  })

  it("an MFA challenge: a wrong code refused, the authenticator's code signs in (phone)", async () => {
    const email = uniqueEmail("mfa")
    const password = "a long enough password"
    await register(email, password)
    const { secret } = await dev<{ secret: string }>(`/members/${await memberId(email)}/factors`, { body: { type: "TOTP" } })
    const { context, page, problems } = await open(PHONE)
    try {
      await page.goto(`${session.platform.url}/#/member`)
      await signIn(page, email, password)
      const code = page.getByLabel("Authentication code")
      await code.waitFor()
      await screenshot(page, "member-mfa-phone")
      await code.fill(totp(secret, Date.now() - 10 * 60_000))
      await page.getByRole("button", { name: "Verify" }).click()
      await page.getByRole("alert").filter({ hasText: "Not verified." }).waitFor()
      await code.fill(totp(secret))
      await page.getByRole("button", { name: "Verify" }).click()
      await signedIn(page, email)
      assert.deepStrictEqual(unexpected(problems, [400]), [])
    } finally {
      await context.close()
    }
  })

  it("a password reset through the emailed link", async () => {
    const email = uniqueEmail("reset")
    await register(email, "the old password")
    const { context, page, problems } = await open(DESKTOP)
    try {
      await page.goto(`${session.platform.url}/#/member`)
      await page.getByRole("link", { name: "Forgot your password?" }).click()
      const form = page.getByRole("form", { name: "Reset your password" })
      await form.getByLabel("Email").fill(email)
      await form.getByRole("button", { name: "Send reset link" }).click()
      await page.getByRole("status").filter({ hasText: "a reset link is on its way" }).waitFor()

      const link = new URL((await lastMessage(email, "RECOVERY")).link!)
      assert.strictEqual(link.origin, session.platform.url)
      assert.strictEqual(link.hash, "#/member/reset")
      await page.goto(link.href)
      await page.getByLabel("New password", { exact: true }).fill("the new password")
      await screenshot(page, "member-reset-desktop")
      await page.getByRole("button", { name: "Set new password" }).click()
      await signedIn(page, email)
      // the link's token has left the address
      assert.notInclude(page.url(), "recoveryToken")

      await signOut(page)
      await signIn(page, email, "the new password")
      await signedIn(page, email)
      assert.deepStrictEqual(problems, [])
    } finally {
      await context.close()
    }
  })

  it("a site that asks for a captcha: the field appears, a test token from the platform signs in (phone)", async () => {
    const { context, page, problems } = await open(PHONE)
    await settings({ captcha: true })
    try {
      await page.goto(`${session.platform.url}/#/member`)
      await signIn(page, DEMO.email, DEMO.password)
      await page.getByRole("alert").filter({ hasText: "This site asks for a captcha" }).waitFor()
      const field = signInForm(page).getByLabel("Captcha token")
      await page.getByRole("button", { name: "Get a test token" }).click()
      await page.waitForFunction(() => (document.querySelector("input[name=captcha]") as HTMLInputElement | null)?.value !== "")
      await screenshot(page, "member-captcha-phone")
      assert.isNotEmpty(await field.inputValue())
      await signInForm(page).getByRole("button", { name: "Sign in" }).click()
      await signedIn(page, DEMO.email)
      assert.deepStrictEqual(unexpected(problems, [400]), [])
    } finally {
      await settings({ captcha: false })
      await context.close()
    }
  })

  it("the weekly pre-warm: the platform's pages get this browser's visitor session once, not again within the week", async () => {
    const { context, page, problems } = await open(DESKTOP)
    let prewarms = 0
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/oauth2/session") prewarms++
    })
    try {
      await page.goto(`${session.platform.url}/#/member`)
      await signInForm(page).waitFor()
      await page.waitForFunction(() => localStorage.getItem("wixRedirectSessionLastPreWarm") !== null)
      assert.strictEqual(prewarms, 1)
      assert.include((await context.cookies()).map((c) => c.name), "sfx_visitor")
      await page.reload()
      await signInForm(page).waitFor()
      await page.waitForLoadState("networkidle")
      assert.strictEqual(prewarms, 1)
      assert.deepStrictEqual(problems, [])
    } finally {
      await context.close()
    }
  })
})
