/**
 * One error model: every module maps a failed platform call the same way. Unavailability stays the
 * PlatformError; any other failure becomes the module's error with the platform's reason as it came,
 * and every error reads the same (`code`, `message`, `status`, `fieldViolations`, `requestId`), so a 403
 * is PERMISSION_DENIED in data, catalog and members alike, and in the PlatformError itself.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Catalog from "../../src/catalog/CatalogError.ts"
import * as Data from "../../src/data/DataError.ts"
import { explain, stopsTheCommand } from "../../src/cli/failures.ts"
import { ExitCode } from "../../src/cli/output.ts"
import { PlatformError } from "../../src/http/PlatformError.ts"
import { ApplicationError, codeOf, type FailureReason, SystemError, TransportError, ValidationError } from "../../src/http/reasons.ts"
import { AnswerError, ArgumentError, FailureCodes } from "../../src/http/Refusal.ts"
import * as Members from "../../src/members/MembersError.ts"

const failed = (reason: PlatformError["reason"]) => new PlatformError({ method: "POST", path: "/some/call", reason })

const MODULES = [
  { name: "data", map: (e: PlatformError) => Data.fromPlatformError(e), tag: "DataError" },
  { name: "catalog", map: Catalog.fromPlatformError, tag: "CatalogError" },
  { name: "members", map: Members.fromPlatformError, tag: "MembersError" }
] as const

const violations = [{ field: "name", description: "must not be empty" }]

/** Each platform answer, with the code and message every module reads from it. */
const REFUSALS: ReadonlyArray<{ readonly what: string; readonly reason: PlatformError["reason"]; readonly code: string; readonly message: string; readonly status: number }> = [
  {
    what: "an application refusal",
    reason: new ApplicationError({ status: 404, message: "m", code: "X_NOT_FOUND", description: "x is missing", requestId: "r" }),
    code: "X_NOT_FOUND",
    message: "x is missing",
    status: 404
  },
  {
    what: "a validation refusal",
    reason: new ValidationError({ status: 400, message: "bad input", fieldViolations: violations, requestId: "r" }),
    code: "VALIDATION_ERROR",
    message: "bad input\nname: must not be empty",
    status: 400
  },
  { what: "a bare 401", reason: new SystemError({ status: 401, message: "m", description: "Unauthorized", requestId: "r" }), code: "UNAUTHENTICATED", message: "Unauthorized", status: 401 },
  { what: "a bare 403", reason: new SystemError({ status: 403, message: "m", description: "Forbidden", requestId: "r" }), code: "PERMISSION_DENIED", message: "Forbidden", status: 403 },
  { what: "a bare 404", reason: new SystemError({ status: 404, message: "m", description: "Not Found", requestId: "r" }), code: "NOT_FOUND", message: "Not Found", status: 404 },
  { what: "a bare 500", reason: new SystemError({ status: 500, message: "m", description: "Internal", requestId: "r" }), code: "UNKNOWN_ERROR", message: "Internal", status: 500 },
  {
    what: "an answer of an unexpected shape",
    reason: new SystemError({ status: 200, message: "m", description: "Unexpected response body: .id: expected a string" }),
    code: "UNKNOWN_ERROR",
    message: "Unexpected response body: .id: expected a string",
    status: 200
  }
]

describe("every module reads a platform refusal the same way", () => {
  for (const refusal of REFUSALS) {
    it(refusal.what, () => {
      const platform = failed(refusal.reason)
      assert.strictEqual(platform.code, refusal.code)
      for (const module of MODULES) {
        const e = module.map(platform)
        assert.notStrictEqual(e._tag, "PlatformError", module.name)
        assert.strictEqual(e._tag, module.tag)
        expect({ code: e.code, message: e.message, status: e.status, requestId: e.requestId, fieldViolations: e.fieldViolations }, module.name).toStrictEqual({
          code: refusal.code,
          message: refusal.message,
          status: refusal.status,
          requestId: refusal.reason._tag === "TransportError" ? undefined : refusal.reason.requestId,
          fieldViolations: refusal.reason._tag === "ValidationError" ? violations : []
        })
        assert.strictEqual(e.reason, refusal.reason, `${module.name} keeps the reason as it came`)
      }
    })
  }

  it("unavailability (no answer, 429, 502, 503, 504) stays the PlatformError in every module", () => {
    const reasons = [new TransportError({ message: "connect ECONNREFUSED" }), ...[429, 502, 503, 504].map((status) => new SystemError({ status, message: "m", description: "d" }))]
    for (const reason of reasons) {
      const platform = failed(reason)
      for (const module of MODULES) assert.strictEqual(module.map(platform), platform, `${module.name}, ${reason._tag}`)
    }
    assert.strictEqual(failed(new TransportError({ message: "x" })).code, FailureCodes.transport)
  })

  it("a local argument check reads the same in every module: its code, message and field, no status", () => {
    const errors = [Data.invalid(Data.WDE.notANumber, "Bad limit.", "limit"), Catalog.invalidArgument("Bad limit.", "limit"), Members.invalidArgument("Bad limit.", "limit")]
    expect(errors.map((e) => [e._tag, e.reason._tag, e.code, e.field, e.status])).toStrictEqual([
      ["DataError", "ArgumentError", "WDE0032", "limit", undefined],
      ["CatalogError", "ArgumentError", "INVALID_ARGUMENT", "limit", undefined],
      ["MembersError", "ArgumentError", "INVALID_ARGUMENT", "limit", undefined]
    ])
  })

  it("an answer sitefx cannot use carries its code and data, no status", () => {
    const e = Catalog.badAnswer("CATALOG_VERSION_MISMATCH", "products belong to V1_CATALOG", { version: "V3_CATALOG" })
    expect([e.reason._tag, e.code, e.message, e.data, e.status]).toStrictEqual(["AnswerError", "CATALOG_VERSION_MISMATCH", "products belong to V1_CATALOG", { version: "V3_CATALOG" }, undefined])
  })

  it("codeOf names every reason", () => {
    const reasons: ReadonlyArray<[FailureReason, string]> = [
      [new ArgumentError({ code: "WDE0001", message: "m" }), "WDE0001"],
      [new AnswerError({ code: "CART_GONE", message: "m" }), "CART_GONE"],
      [new ApplicationError({ status: 409, message: "m", code: "WDE0074", description: "d" }), "WDE0074"],
      [new ValidationError({ status: 400, message: "m", fieldViolations: [] }), "VALIDATION_ERROR"],
      [new SystemError({ status: 403, message: "m", description: "d" }), "PERMISSION_DENIED"],
      [new TransportError({ message: "m" }), "TRANSPORT_ERROR"]
    ]
    for (const [reason, code] of reasons) assert.strictEqual(codeOf(reason), code)
  })

  it("every code codeOf gives a bare status is one of FailureCodes (reasons.ts keeps its own copy of the table, so a session page carries no more than it reads)", () => {
    const named = new Set<string>(Object.values(FailureCodes))
    for (let status = 400; status < 600; status++) {
      assert.isTrue(named.has(codeOf(new SystemError({ status, message: "m", description: "d" }))), String(status))
    }
    assert.isTrue(named.has(codeOf(new ValidationError({ status: 400, message: "m", fieldViolations: [] }))))
    assert.isTrue(named.has(codeOf(new TransportError({ message: "m" }))))
  })
})

describe("Effect's reason handlers", () => {
  it.effect("Effect.catchReason picks a reason of a module error; other reasons stay the module error", () =>
    Effect.gen(function*() {
      const refused = (reason: PlatformError["reason"]) => Effect.fail(Data.fromReason(reason as ApplicationError, "Posts"))
      const notFound = new ApplicationError({ status: 404, message: "m", code: "WDE0073", description: "gone" })
      const caught = yield* refused(notFound).pipe(Effect.catchReason("DataError", "ApplicationError", (r) => Effect.succeed(r.code)))
      assert.strictEqual(caught, "WDE0073")
      const forbidden = new SystemError({ status: 403, message: "m", description: "Forbidden" })
      const left = yield* Effect.flip(refused(forbidden).pipe(Effect.catchReason("DataError", "ApplicationError", (r) => Effect.succeed(r.code))))
      expect([left._tag, left.code]).toStrictEqual(["DataError", "PERMISSION_DENIED"])
    }))
})

describe("the command reads one field, the reason, whichever module failed", () => {
  it("a refused key stops the command with a usage exit in every module", () => {
    const platform = failed(new SystemError({ status: 403, message: "m", description: "Forbidden" }))
    for (const e of [platform, ...MODULES.map((m) => m.map(platform))]) {
      assert.isTrue(stopsTheCommand(e))
      const explained = explain(e, { baseUrl: "http://127.0.0.1:8787" })
      assert.strictEqual(explained.exitCode, ExitCode.usage)
      assert.include(explained.message, "refused the API key (403)")
    }
  })

  it("an unreachable platform stops the command; an item's refusal does not", () => {
    const gone = failed(new TransportError({ message: "connect ECONNREFUSED" }))
    assert.isTrue(stopsTheCommand(gone))
    assert.include(explain(gone).message, "cannot reach the platform")
    const refused = Catalog.fromPlatformError(failed(new ApplicationError({ status: 409, message: "m", code: "DUPLICATE_SLUG", description: "slug taken" })))
    assert.isFalse(stopsTheCommand(refused))
    expect([explain(refused).message, explain(refused).exitCode]).toStrictEqual(["DUPLICATE_SLUG: slug taken", ExitCode.itemsFailed])
  })
})
