/**
 * `sitefx members`: a site's members for its admins, with the site's API key.
 *
 * - `list` prints every member (page after page), or those of a `--status` or a login `--email`, as a
 *   table (id, login e-mail, status, nickname, created) or with `--json` as one `{members, total}`;
 *   `total` is how many match, more than listed when `--limit` cut the list.
 * - `approve` and `block` take members by id or login e-mail, one line per member done. A member that
 *   cannot be found or is refused is reported and the others are still done; the exit code is then 1.
 *   A refused key or an unreachable platform stops at once (exit 2), since every member would fail alike.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { Argument, Command, Flag } from "effect/cli"
import type { PlatformClient } from "../http/PlatformClient.ts"
import * as Members from "../members/Members.ts"
import { badAnswer, MembersCodes, MembersError, type MembersFailure } from "../members/MembersError.ts"
import { MEMBER_STATUSES } from "../members/protocol.ts"
import { type ConnectionFlags, connectionFlags, withSite } from "./connection.ts"
import { explained } from "./failures.ts"
import { failed, modeOf, note, type OutputFlags, outputFlags, type OutputMode, printResult, usage } from "./output.ts"

const common = { ...connectionFlags, ...outputFlags }

/** Runs a command's work against the site its flags name, every failure one explained line. */
const onSite = <A, E, R>(flags: ConnectionFlags & OutputFlags, use: Effect.Effect<A, E, R>) =>
  withSite(flags, (connection) => explained(use, connection))

// ---- list ---------------------------------------------------------------------------------------------------

export interface ListOptions {
  readonly status: Members.MemberStatus | undefined
  readonly email: string | undefined
  readonly limit: number | undefined
  /** Members asked for a request (tests use small pages); a page as big as `--limit` allows otherwise. */
  readonly pageSize?: number
}

/**
 * The matching members, page after page until the last (or `limit`), and how many match in all. Paged
 * here rather than with `Members.stream`, which has no filter and does not tell the total.
 */
export const matching = (options: ListOptions) => {
  const filtered = options.status !== undefined || options.email !== undefined
  const pageSize = options.pageSize ?? Math.min(options.limit ?? Members.DEFAULT_MEMBERS_PAGE, Members.MAX_MEMBERS_PAGE)
  const page = (offset: number, limit: number) =>
    filtered
      ? Members.query({
        ...(options.status === undefined ? {} : { status: options.status }),
        ...(options.email === undefined ? {} : { loginEmail: options.email }),
        offset,
        limit
      })
      : Members.list({ offset, limit })
  let total: number | undefined
  const members = Stream.paginate(0, (offset: number) => {
    const want = options.limit === undefined ? pageSize : Math.min(pageSize, options.limit - offset)
    return Effect.map(page(offset, want), (answer) => {
      total ??= answer.total
      const next = offset + answer.members.length
      const more = answer.members.length === want &&
        (options.limit === undefined || next < options.limit) &&
        (answer.total === undefined || next < answer.total)
      return [answer.members, more ? Option.some(next) : Option.none()] as const
    })
  })
  return Effect.map(Stream.runCollect(members), (all) => ({ members: all, total: total ?? all.length }))
}

const created = (m: Members.Member): string => (m.createdDate === undefined ? "" : m.createdDate.replace(/\.\d+Z$/, "Z"))

const table = (members: ReadonlyArray<Members.Member>): string => {
  const rows = members.map((m) => [m.id, m.loginEmail ?? "", m.status ?? "", m.profile?.nickname ?? "", created(m)])
  const header = ["id", "login email", "status", "nickname", "created"]
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")
  return [line(header), ...rows.map(line)].join("\n")
}

const runList = (options: ListOptions & { readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    if (options.limit !== undefined && options.limit < 1) return yield* usage("--limit must be at least 1")
    if (options.email !== undefined && options.email.trim() === "") return yield* usage("--email needs an address, e.g. --email ada@example.com")
    const { members, total } = yield* matching(options)
    const which = [
      ...(options.status === undefined ? [] : [`status ${options.status}`]),
      ...(options.email === undefined ? [] : [`login email ${options.email}`])
    ].join(", ")
    if (members.length === 0) {
      yield* note(options.mode, which === "" ? "the site has no members" : `no member with ${which}`)
      return yield* printResult(options.mode, { members, total }, "")
    }
    yield* printResult(options.mode, { members, total }, table(members))
    yield* note(options.mode, members.length < total ? `${members.length} of ${total} members (--limit ${options.limit})` : `${total} member${total === 1 ? "" : "s"}`)
  })

const list = Command.make(
  "list",
  {
    ...common,
    status: Flag.Literals("status", MEMBER_STATUSES).pipe(Flag.withDescription("Only members of this status, e.g. PENDING (waiting for approval) or BLOCKED"), Flag.optional),
    email: Flag.String("email").pipe(Flag.withDescription("Only the member with this login e-mail (any case)"), Flag.optional),
    limit: Flag.Int("limit").pipe(Flag.withAlias("n"), Flag.withDescription("List at most this many members (default: all of them, page after page)"), Flag.optional)
  },
  (flags) =>
    onSite(flags, runList({
      status: Option.getOrUndefined(flags.status),
      email: Option.getOrUndefined(flags.email),
      limit: Option.getOrUndefined(flags.limit),
      mode: modeOf(flags)
    }))
).pipe(Command.withDescription("List the site's members: id, login e-mail, status, nickname, created; --json for {members, total}"))

// ---- approve and block ----------------------------------------------------------------------------------------

interface Action {
  readonly verb: "approve" | "block"
  readonly done: string
  readonly run: (id: string) => Effect.Effect<Members.Member, MembersFailure, PlatformClient>
}

const APPROVE: Action = { verb: "approve", done: "approved", run: Members.approve }
const BLOCK: Action = { verb: "block", done: "blocked", run: Members.block }

/** A failure of one member alone; a refused key (401, 403) or an unavailable platform is everyone's. */
const ownFailure = (error: MembersFailure): MembersError | undefined =>
  error instanceof MembersError && error.status !== 401 && error.status !== 403 ? error : undefined

/** Why one member was not done, for a person. */
const why = (target: string, error: MembersError): string =>
  error.code === MembersCodes.memberNotFound || error.code === MembersCodes.notFound || error.status === 404
    ? `no member has the id ${target}`
    : `${error.message.includes(error.code) ? "" : `${error.code}: `}${error.message.split("\n").join("; ")}`

type Outcome =
  | { readonly target: string; readonly member: Members.Member }
  | { readonly target: string; readonly error: { readonly code: string; readonly message: string } }

/** The member's id: the argument itself, or the member whose login e-mail it is. */
const idOf = (target: string): Effect.Effect<string | MembersError, MembersFailure, PlatformClient> =>
  !target.includes("@")
    ? Effect.succeed(target)
    : Effect.map(Members.query({ loginEmail: target, limit: 2 }), (page): string | MembersError => {
      const [first, second] = page.members
      if (first === undefined) return badAnswer(MembersCodes.notFound, `no member has the login email ${target}`)
      if (second !== undefined) return badAnswer("AMBIGUOUS", `more than one member has the login email ${target}; name them by id`)
      return first.id
    })

const actOn = (action: Action, target: string): Effect.Effect<Outcome, MembersFailure, PlatformClient> =>
  Effect.gen(function*() {
    const id = yield* idOf(target)
    if (id instanceof MembersError) return { target, error: { code: id.code, message: id.message } }
    return { target, member: yield* action.run(id) }
  }).pipe(
    Effect.catch((error: MembersFailure) => {
      const own = ownFailure(error)
      return own === undefined ? Effect.fail(error) : Effect.succeed<Outcome>({ target, error: { code: own.code, message: why(target, own) } })
    })
  )

const describeMember = (m: Members.Member): string => (m.loginEmail === undefined ? m.id : `${m.loginEmail} (${m.id})`)

const runAction = (action: Action, targets: ReadonlyArray<string>, mode: OutputMode) =>
  Effect.gen(function*() {
    const unique = [...new Set(targets.map((t) => t.trim()))]
    if (unique.some((t) => t === "")) return yield* usage(`an empty member: give each member's id or login e-mail, e.g. sitefx members ${action.verb} ada@example.com`)
    const outcomes: Array<Outcome> = []
    for (const target of unique) {
      const outcome = yield* actOn(action, target)
      outcomes.push(outcome)
      if (mode === "json") continue
      if ("member" in outcome) yield* printResult(mode, null, `${action.done} ${describeMember(outcome.member)}`)
      else yield* Effect.sync(() => process.stderr.write(`cannot ${action.verb} ${outcome.target}: ${outcome.error.message}\n`))
    }
    const done = outcomes.flatMap((o) => ("member" in o ? [o.member] : []))
    const notDone = outcomes.flatMap((o) => ("error" in o ? [{ member: o.target, ...o.error }] : []))
    if (mode === "json") yield* printResult(mode, { [action.done]: done, failed: notDone }, "")
    if (notDone.length > 0) {
      return yield* failed(`${notDone.length} of ${outcomes.length} member${outcomes.length === 1 ? "" : "s"} not ${action.done}${mode === "json" ? `: ${notDone.map((f) => f.member).join(", ")}` : ""}`)
    }
  })

const actionCommand = (action: Action, description: string) =>
  Command.make(
    action.verb,
    {
      ...common,
      members: Argument.String("member").pipe(
        Argument.withDescription("A member's id or login e-mail (one or more)"),
        Argument.variadic({ min: 1 })
      )
    },
    (flags) => onSite(flags, runAction(action, flags.members, modeOf(flags)))
  ).pipe(Command.withDescription(description))

const approve = actionCommand(
  APPROVE,
  "Approve members waiting for approval, or unblock blocked ones, by id or login e-mail: one line each; exit 1 if any was not found or refused"
)
const block = actionCommand(
  BLOCK,
  "Block members by id or login e-mail (they cannot log in, their sessions end): one line each; exit 1 if any was not found or refused"
)

export const members = Command.make("members").pipe(
  Command.withDescription("A site's members, for its admins: list, approve, block"),
  Command.withSubcommands([list, approve, block])
)
