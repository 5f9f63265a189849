/**
 * A batch job: sign members on by email with an admin API key (creating the ones that do not exist),
 * four at a time, and report every email's fate. Run: `npm run example examples/import-members.ts emails.txt`.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { readFile } from "node:fs/promises"
import { Session, Site } from "sitefx"
import { siteConnection } from "./localSite.ts"

export const importMembers = (emails: Iterable<string>, site: { baseUrl: string; clientId: string; apiKey: string }) =>
  Stream.fromIterable(emails).pipe(
    Stream.mapEffect((email) =>
      Session.use((s) => s.externalLoginWithSession(email, site.apiKey, { verifyEmail: false })).pipe(
        Effect.provide(Site.layer({ baseUrl: site.baseUrl, clientId: site.clientId })), // one session per member
        Effect.match({ onSuccess: () => ({ email, ok: true as const }), onFailure: (e) => ({ email, ok: false as const, error: e.message }) })
      ), { concurrency: 4 }),
    Stream.runCollect
  )

if (import.meta.main) {
  const file = process.argv[2] ?? "emails.txt"
  const emails = (await readFile(file, "utf8")).split("\n").map((l) => l.trim()).filter((l) => l !== "")
  const report = await Effect.runPromise(importMembers(emails, await siteConnection()))
  for (const r of report) console.log(r.ok ? `ok      ${r.email}` : `failed  ${r.email}: ${r.error}`)
}
