/**
 * The few HTML pages the platform serves itself: the authorize page's login form, the page that hands
 * an authorization result to a parent window (`web_message`), and plain message pages.
 */
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { AuthorizeMessage } from "../../session/wire/index.ts"

/** Pages carry results and secrets in their URLs: never cached, never sent on as a Referer. */
export const PAGE_HEADERS = { "cache-control": "no-store", "referrer-policy": "no-referrer" }

export const html = (text: string, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(text, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: { ...PAGE_HEADERS, ...headers }
  })

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")

/** JSON that is safe inside a `<script>` element. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029")

const STYLE = `
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f6f6f4; color: #1d1d1b; }
  main { background: #fff; padding: 2rem; border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.08); width: min(22rem, 90vw); }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  label { display: block; margin: .75rem 0 .25rem; }
  input { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; border: 1px solid #bbb; border-radius: 6px; }
  button { margin-top: 1.25rem; width: 100%; padding: .6rem; font: inherit; border: 0; border-radius: 6px; background: #1d1d1b; color: #fff; cursor: pointer; }
  .error { color: #b00020; margin: 0 0 .5rem; }
  .hint { color: #666; font-size: .85rem; margin-top: 1rem; }`

/** A page of the platform's own: its title, its style sheet, its body and an optional inline script. */
export const htmlPage = (title: string, style: string, body: string, script = ""): string =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
${body}${script === "" ? "" : `\n<script>${script}</script>`}
</body>
</html>
`

const page = (title: string, body: string, script = ""): string => htmlPage(title, STYLE, body, script)

export const loginPage = (options: {
  readonly action: string
  readonly clientName: string
  readonly email?: string
  readonly error?: string
}): string =>
  page(
    "Sign in",
    `<main>
<h1>Sign in to ${escapeHtml(options.clientName)}</h1>
${options.error === undefined ? "" : `<p class="error" role="alert">${escapeHtml(options.error)}</p>`}
<form method="post" action="${escapeHtml(options.action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? "")}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<p class="hint">sitefx local platform</p>
</main>`
  )

export const messagePage = (title: string, text: string): string =>
  page(title, `<main>\n<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>\n</main>`)

export const blankPage = (): string => page("sitefx", "")

/** What a developer sees opening the platform's address in a browser: what it is, and where to go. */
export const homePage = (options: { readonly dev: boolean }): string =>
  page(
    "sitefx local platform",
    `<main>
<h1>sitefx local platform</h1>
<p>The platform's headless APIs on this machine: OAuth and redirect sessions, members, data collections.
Point sitefx (<code>Site.layer({ baseUrl })</code>) or the platform's official clients at this address.</p>
${
      options.dev
        ? `<p>The <a href="/_sitefx/console">console</a> shows members, the outbox, requests, webhooks, settings, the clock, faults and snapshots.</p>
<p>Dev endpoints: <a href="/_sitefx/health">health</a>, <a href="/_sitefx/outbox">outbox</a> (emails and codes),
<a href="/_sitefx/settings">settings</a>, <a href="/_sitefx/members">members</a>, <a href="/_sitefx/stats">counters</a>.</p>`
        : "<p>Dev endpoints are off.</p>"
    }
</main>`
  )

/**
 * Posts `message` to the parent window, and only to `targetOrigin`. Without a target known to the
 * server (no Referer header), the page derives it from `document.referrer` and checks it against the
 * client's origin patterns (same rule as origins.ts) before posting; it never posts to `*`.
 */
export const webMessagePage = (options: {
  readonly message: AuthorizeMessage | undefined
  readonly targetOrigin: string | undefined
  readonly allowedOrigins: ReadonlyArray<string>
}): string =>
  page(
    "sitefx",
    "",
    `
(function () {
  var message = ${scriptJson(options.message ?? null)};
  var target = ${scriptJson(options.targetOrigin ?? null)};
  var allowed = ${scriptJson(options.allowedOrigins)};
  function matches(pattern, origin) {
    if (pattern.slice(-2) !== ":*") return pattern === origin;
    var base = pattern.slice(0, -2);
    if (origin === base) return true;
    return origin.indexOf(base + ":") === 0 && /^\\d{1,5}$/.test(origin.slice(base.length + 1));
  }
  if (target === null && document.referrer) {
    try {
      var origin = new URL(document.referrer).origin;
      if (allowed.some(function (p) { return matches(p, origin); })) target = origin;
    } catch (e) {}
  }
  if (message !== null && target !== null && window.parent && window.parent !== window) {
    window.parent.postMessage(message, target);
  }
})();
`
  )
