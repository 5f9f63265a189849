/**
 * The data browser: the site's collections (`#/data`), and a collection's items (`#/data/<id>`) with a
 * filter, a sort and paging in the URL. The page offers adding, editing and removing only where the
 * collection's permissions (as the platform describes the collection) let the visitor or member do so,
 * and says briefly who may where they do not; should the platform refuse a write all the same (the
 * permissions changed meanwhile), its refusal is shown as it gave it. Writes show at once (sitefx/react's
 * optimistic writes) and are taken back when the platform refuses them. Items changed elsewhere show as
 * they change (the site's live events).
 */
import * as Option from "effect/Option"
import { collectionAccess, type DataWire, type Item, itemAllowed, type PermissionAction, type PermissionCaller } from "sitefx/data"
import { AsyncResult, Atom, type QueryAtom, useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useState } from "react"
import { ErrorBox, Loading, messageOf, ResultView } from "../shell/Result.tsx"
import { href } from "../shell/router.ts"
import { currentQuery, paramsOf, replaceParams, useDebounced, useHashQuery } from "../store/params.ts"
import {
  collectionAtom,
  identityAtom,
  itemsQuery,
  memberEmailAtom,
  OPERATORS,
  type Operator,
  paramsOfView,
  queries,
  referencedAtom,
  type View,
  viewOf,
  writes
} from "./atoms.ts"
import { callerOf, collectionById, COLLECTIONS, type Field, inWords, type KnownCollection, membersOnly, readersOf, writersOf } from "./collections.ts"

export function DataBrowser(props: { readonly path: ReadonlyArray<string> }) {
  const [id] = props.path
  const collection = id === undefined ? undefined : collectionById(id)
  return (
    <section aria-labelledby="data-title" className="data">
      {id === undefined
        ? <CollectionList />
        : collection === undefined
        ? (
          <>
            <Breadcrumb current={id} />
            <h1 id="data-title">{id}</h1>
            <ErrorBox title="No such collection." message={`The data browser knows ${COLLECTIONS.map((c) => c.id).join(", ")}.`} />
          </>
        )
        : <CollectionView key={collection.id} c={collection} />}
    </section>
  )
}

function Breadcrumb(props: { readonly current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <a href={href("data")}>Data</a>
      <span aria-hidden="true"> / </span>
      <span aria-current="page">{props.current}</span>
    </nav>
  )
}

function CollectionList() {
  return (
    <>
      <h1 id="data-title">Data</h1>
      <p>The demo site's collections. What you may read and write depends on who you are.</p>
      <BrowsingAs />
      <ul className="collection-list" aria-label="Collections">
        {COLLECTIONS.map((c) => (
          <li key={c.id} className="card">
            <h2><a href={href("data", c.id)}>{c.id}</a></h2>
            <p>{c.description}</p>
            <Permissions c={c} permissions={c.permissions} />
          </li>
        ))}
      </ul>
    </>
  )
}

function Permissions(props: { readonly c: KnownCollection; readonly permissions: DataWire.Permissions }) {
  return (
    <dl className="permissions">
      <div><dt>Read by</dt><dd>{readersOf(props.permissions)}</dd></div>
      <div><dt>Written by</dt><dd>{writersOf(props.c, props.permissions)}</dd></div>
    </dl>
  )
}

type CollectionResult = AsyncResult.AsyncResult<Option.Option<DataWire.DataCollection>, unknown>

/** What a page reads while it does not ask the platform about its collection. */
const notAsked: Atom.Atom<CollectionResult> = Atom.make(AsyncResult.initial())

/**
 * The collection's permissions as the platform describes the collection to whoever is browsing:
 * undefined until it has (nothing is offered before), the seed's if it cannot say (with why).
 */
function useCollectionPermissions(c: KnownCollection, identity: string | undefined): {
  readonly permissions: DataWire.Permissions | undefined
  readonly unread?: string
} {
  // a visitor may not read a members-only collection, nor its description
  const ask = identity !== undefined && !(identity === "visitor" && membersOnly(c.permissions))
  const atom: Atom.Atom<CollectionResult> = ask ? collectionAtom(`${c.id}|${identity}`) : notAsked
  const result = useAtomValue(atom)
  if (AsyncResult.isSuccess(result)) return { permissions: Option.match(result.value, { onNone: () => c.permissions, onSome: (d) => d.permissions ?? {} }) }
  if (AsyncResult.isFailure(result)) return { permissions: c.permissions, unread: messageOf(result.cause) }
  return { permissions: undefined }
}

const WRITES: ReadonlyArray<{ readonly action: PermissionAction; readonly they: string; readonly you: string }> = [
  { action: "insert", they: "adds", you: "add" },
  { action: "update", they: "edits", you: "edit" },
  { action: "remove", they: "removes", you: "remove" }
]

const OWNER_ROLES: ReadonlySet<string> = new Set(["ADMIN", "CMS_EDITOR", "PRIVILEGED"])

/**
 * Why the page offers no adding, editing or removing where it does not: the site's owner alone may, or a
 * signed-in member (then: sign in); and for a member who edits only what it added among items of others.
 */
function WriteNotes(props: { readonly c: KnownCollection; readonly permissions: DataWire.Permissions; readonly caller: PermissionCaller }) {
  const { c, permissions, caller } = props
  const closed = WRITES.filter((w) => collectionAccess(permissions, caller, w.action) === "none")
  const ownersOnly = closed.filter((w) => OWNER_ROLES.has(permissions[w.action] ?? "ADMIN"))
  const forMembers = closed.filter((w) => !ownersOnly.includes(w))
  const own = WRITES.filter((w) => w.action !== "insert" && collectionAccess(permissions, caller, w.action) === "own")
  const notes: Array<ReactNode> = []
  if (ownersOnly.length > 0) notes.push(<>Only the site's owner {inWords(ownersOnly.map((w) => w.they))} {c.noun}.</>)
  if (forMembers.length > 0) {
    notes.push(<>Only signed-in members {inWords(forMembers.map((w) => w.you))} {c.noun}: <a href={href("member")}>sign in</a> first.</>)
  }
  // where the member reads only its own items, every item shown is one it may change
  if (own.length > 0 && collectionAccess(permissions, caller, "read") === "all") notes.push(<>You {inWords(own.map((w) => w.you))} only the {c.noun} you added.</>)
  return notes.length === 0 ? null : <>{notes.map((note, i) => <p key={i} className="permission-note">{note}</p>)}</>
}

function BrowsingAs() {
  const identity = useAtomValue(identityAtom)
  const email = useAtomValue(memberEmailAtom)
  if (identity === undefined) return <p className="browsing-as">Checking who you are…</p>
  if (identity === "visitor") {
    return (
      <p className="browsing-as">
        You are browsing as a visitor. <a href={href("member")}>Sign in</a> to keep notes of your own.
      </p>
    )
  }
  return <p className="browsing-as">Signed in as {email ?? "a member"}.</p>
}

function LiveNote() {
  const live = useAtomValue(queries.live)
  return live._tag === "Failure"
    ? <p className="live-note off">Live updates are off: {messageOf(live.cause)}</p>
    : <p className="live-note">Changes made elsewhere show here as they happen.</p>
}

function CollectionView(props: { readonly c: KnownCollection }) {
  const { c } = props
  const identity = useAtomValue(identityAtom)
  const query = useHashQuery()
  const view = useMemo(() => viewOf(c, paramsOf(query)), [c, query])
  const { permissions, unread } = useCollectionPermissions(c, identity)
  const caller = identity === undefined ? undefined : callerOf(identity)
  return (
    <>
      <Breadcrumb current={c.id} />
      <h1 id="data-title">{c.id}</h1>
      <p>{c.description}</p>
      <Permissions c={c} permissions={permissions ?? c.permissions} />
      <BrowsingAs />
      <LiveNote />
      {unread === undefined ? null : <p className="permission-note">The platform did not say who may change {c.noun} ({unread}); the page offers what the demo seed allows.</p>}
      {identity === undefined || caller === undefined ? <Loading label="Checking who you are" /> : membersOnly(c.permissions) && identity === "visitor"
        ? (
          // the platform would refuse a visitor; no point in asking
          <p className="notice">
            {c.id} are private to each member. <a href={href("member")}>Sign in</a> to read and write your own.
          </p>
        )
        : (
        <>
          <ViewForm c={c} view={view} />
          {permissions === undefined ? null : <WriteNotes c={c} permissions={permissions} caller={caller} />}
          {permissions !== undefined && collectionAccess(permissions, caller, "insert") !== "none" ? <AddItem c={c} /> : null}
          <ItemList c={c} view={view} permissions={permissions} caller={caller} />
        </>
      )}
    </>
  )
}

const SORT_FIELDS = (c: KnownCollection): ReadonlyArray<readonly [string, string]> => [
  ...c.fields.filter((f) => f.type !== "ARRAY_STRING").map((f) => [f.key, f.label] as const),
  ["_createdDate", "Created"],
  ["_id", "ID"]
]

function ViewForm(props: { readonly c: KnownCollection; readonly view: View }) {
  const { c, view } = props
  // on top of what the URL says at this moment, so a typed value and a changed select both land
  const set = (patch: Partial<View>) => replaceParams(["data", c.id], paramsOfView(c, { ...viewOf(c, paramsOf(currentQuery())), ...patch }))
  const field = c.fields.find((f) => f.key === view.field) ?? c.fields[0]!
  const [value, setValue, flush, cancel] = useDebounced(view.value, (v) => set({ value: v }))
  const id = useId()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    flush()
  }
  return (
    <form className="filters data-filters" role="search" aria-label={`Filter and sort ${c.id}`} onSubmit={submit}>
      <div className="filters-grid">
        <div className="field">
          <label htmlFor={`${id}-field`}>Filter on</label>
          <select
            id={`${id}-field`}
            value={field.key}
            onChange={(e) => {
              const next = c.fields.find((f) => f.key === e.target.value) ?? field
              // a value still on its way to the URL belongs to the old field: it must not land on the new one
              cancel()
              set({ field: next.key, op: OPERATORS[next.type][0]![0], value: next.type === field.type ? value : "" })
            }}
          >
            {c.fields.map((f) => <option key={f.key} value={f.key}>{f.label}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-op`}>Condition</label>
          <select id={`${id}-op`} value={view.op} onChange={(e) => set({ value, op: e.target.value as Operator })}>
            {OPERATORS[field.type].map(([op, label]) => <option key={op} value={op}>{label}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-value`}>Value</label>
          <input
            id={`${id}-value`}
            type={field.type === "NUMBER" ? "number" : field.type === "DATETIME" ? "date" : "search"}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            autoComplete="off"
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-sort`}>Sort by</label>
          <select id={`${id}-sort`} value={view.sort} onChange={(e) => set({ value, sort: e.target.value })}>
            {SORT_FIELDS(c).map(([key, label]) => <option key={key} value={key}>{label}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-dir`}>Order</label>
          <select id={`${id}-dir`} value={view.dir} onChange={(e) => set({ value, dir: e.target.value === "asc" ? "asc" : "desc" })}>
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </select>
        </div>
      </div>
      <div className="actions">
        <button type="submit">Apply</button>
        <button type="button" className="secondary" disabled={view.value === ""} onClick={() => set({ value: "" })}>Clear filter</button>
      </div>
    </form>
  )
}

// ---- items ------------------------------------------------------------------------------------------

const dateText = (value: unknown): string => {
  const d = value instanceof Date ? value : typeof value === "string" ? new Date(value) : undefined
  return d === undefined || Number.isNaN(d.getTime()) ? "" : d.toISOString().slice(0, 10)
}

/** A field's value as text, for showing it and for a form's input. */
const textOf = (field: Field, value: unknown): string =>
  value === undefined || value === null
    ? ""
    : field.type === "DATETIME"
    ? dateText(value)
    : Array.isArray(value)
    ? value.join(", ")
    : typeof value === "object"
    ? String((value as { _id?: unknown })._id ?? "")
    : String(value)

/** What a collection without references reads instead of a referenced collection. */
const noReferences: Atom.Atom<AsyncResult.AsyncResult<{ readonly items: ReadonlyArray<Item> }, unknown>> = Atom.make(AsyncResult.initial())

/** The names of a referenced collection's items, by id. */
function useReferenceNames(field: Field | undefined): ReadonlyMap<string, string> {
  const atom: Atom.Atom<AsyncResult.AsyncResult<{ readonly items: ReadonlyArray<Item> }, unknown>> = field?.references === undefined
    ? noReferences
    : referencedAtom(field.references.collection)
  const result = useAtomValue(atom)
  return useMemo(() => {
    const names = new Map<string, string>()
    if (field?.references !== undefined && AsyncResult.isSuccess(result)) {
      for (const item of result.value.items) names.set(String(item._id), String(item[field.references.displayField] ?? item._id))
    }
    return names
  }, [field, result])
}

function ItemList(props: {
  readonly c: KnownCollection
  readonly view: View
  /** Undefined while the platform has not said: no item offers a change then. */
  readonly permissions: DataWire.Permissions | undefined
  readonly caller: PermissionCaller
}) {
  const { c, view } = props
  // the same atom whoever browses: it loads again as whoever signs in or out (here or in another tab)
  const items: QueryAtom<Item, unknown> = useMemo(() => queries.items(itemsQuery(c, view)), [c, view])
  const result = useAtomValue(items)
  const loadMore = useAtomSet(items.loadMore)
  const reference = c.fields.find((f) => f.type === "REFERENCE")
  const names = useReferenceNames(reference)
  return (
    <ResultView result={result} loading={`Loading ${c.id}`} failed={`The platform refused to list ${c.id}.`} retry={() => loadMore()}>
      {(page, waiting) => (
        <>
          <p className="results" role="status" aria-live="polite">
            {page.items.length === 0
              ? view.value === "" ? "No items yet." : "No items match."
              : `Showing ${page.items.length}${page.total === undefined ? "" : ` of ${page.total}`} item${page.total === 1 ? "" : "s"}`}
            {waiting ? " (updating…)" : ""}
          </p>
          {page.items.length === 0 ? null : (
            <ul className="items" aria-label={`${c.id} items`} aria-busy={waiting}>
              {page.items.map((item) => (
                <ItemCard
                  key={String(item._id)}
                  c={c}
                  item={item}
                  names={names}
                  mayEdit={props.permissions !== undefined && itemAllowed(props.permissions, props.caller, "update", item)}
                  mayRemove={props.permissions !== undefined && itemAllowed(props.permissions, props.caller, "remove", item)}
                />
              ))}
            </ul>
          )}
          {page.hasMore
            ? (
              <div className="more">
                <button type="button" className="secondary" onClick={() => loadMore()} disabled={waiting}>
                  {waiting ? "Loading more items…" : "Load more items"}
                </button>
              </div>
            )
            : null}
        </>
      )}
    </ResultView>
  )
}

function ItemCard(props: {
  readonly c: KnownCollection
  readonly item: Item
  readonly names: ReadonlyMap<string, string>
  /** Whether the collection's permissions let whoever is browsing edit, and remove, this item. */
  readonly mayEdit: boolean
  readonly mayRemove: boolean
}) {
  const { c, item, names, mayEdit, mayRemove } = props
  const [mode, setMode] = useState<"view" | "edit" | "remove">("view")
  const title = String(item[c.displayField] ?? "") || String(item._id)
  // a removal leaves the list at once; refused, the card comes back (a new one) and says why here
  const refused = useAtomValue(writes.refused(c.id))
  const removalRefused = refused?.kind === "remove" && refused.id === String(item._id) ? refused : undefined
  // shown before the platform has answered (a new item has no id of its own yet)
  const saving = useAtomValue(writes.pending(c.id)).some((w) => w.id === String(item._id))
  const headingId = useId()
  return (
    <li className="card item-card">
      <article aria-labelledby={headingId} aria-busy={saving}>
        <h2 id={headingId}>{title}</h2>
        {mode === "edit" && mayEdit
          ? <EditItem c={c} item={item} done={() => setMode("view")} />
          : (
            <>
              <dl className="item-fields">
                {c.fields.filter((f) => f.key !== c.displayField).map((f) => {
                  const text = textOf(f, item[f.key])
                  return (
                    <div key={f.key}>
                      <dt>{f.label}</dt>
                      <dd>{text === "" ? "—" : f.type === "REFERENCE" ? names.get(text) ?? text : text}</dd>
                    </div>
                  )
                })}
              </dl>
              <p className="item-meta">{saving ? "Saving…" : `ID ${String(item._id)}${item._updatedDate === undefined ? "" : ` · updated ${dateText(item._updatedDate)}`}`}</p>
              {removalRefused === undefined ? null : <ErrorBox title="The platform refused to remove this item." message={messageOf(removalRefused.cause)} />}
              {mode === "remove" && mayRemove
                ? <RemoveItem c={c} item={item} title={title} done={() => setMode("view")} />
                : mayEdit || mayRemove
                ? (
                  <div className="actions">
                    {mayEdit ? <button type="button" className="secondary" onClick={() => setMode("edit")} aria-label={`Edit ${title}`}>Edit</button> : null}
                    {mayRemove ? <button type="button" className="secondary" onClick={() => setMode("remove")} aria-label={`Remove ${title}`}>Remove</button> : null}
                  </div>
                )
                : null}
            </>
          )}
      </article>
    </li>
  )
}

/** The result of this form's own write: the shared write atom's result, once this form has sent something. */
function useWrite<Arg, A, E>(atom: Atom.AtomResultFn<Arg, A, E>) {
  const run = useAtomSet(atom)
  const result = useAtomValue(atom)
  const [sent, setSent] = useState(false)
  // a fresh start for every form that opens, and nothing left behind when it goes
  useEffect(() => {
    run(Atom.Reset)
    return () => run(Atom.Reset)
  }, [run])
  const send = (arg: Arg) => {
    setSent(true)
    run(arg)
  }
  return { send, result: sent ? result : AsyncResult.initial<A, E>(), reset: () => setSent(false) } as const
}

function Refusal(props: { readonly result: AsyncResult.AsyncResult<unknown, unknown>; readonly title: string }) {
  return props.result._tag === "Failure" && !props.result.waiting ? <ErrorBox title={props.title} message={messageOf(props.result.cause)} /> : null
}

function AddItem(props: { readonly c: KnownCollection }) {
  const { c } = props
  const insert = useWrite(writes.insert)
  const [form, setForm] = useState(0)
  const added = AsyncResult.isSuccess(insert.result) && !insert.result.waiting ? insert.result.value : undefined
  useEffect(() => {
    // a new, empty form once the item is in
    if (added !== undefined) setForm((n) => n + 1)
  }, [added])
  return (
    <details className="add-item">
      <summary>Add an item to {c.id}</summary>
      <ItemForm
        key={form}
        c={c}
        submitLabel="Add item"
        busy={insert.result.waiting}
        onSubmit={(values) => insert.send({ collection: c.id, item: values })}
      />
      <Refusal result={insert.result} title="The platform refused to add this item." />
      {added === undefined ? null : <p className="saved" role="status">Added “{String(added[c.displayField] ?? added._id)}”.</p>}
    </details>
  )
}

function EditItem(props: { readonly c: KnownCollection; readonly item: Item; readonly done: () => void }) {
  const { c, item, done } = props
  const update = useWrite(writes.update)
  const saved = AsyncResult.isSuccess(update.result) && !update.result.waiting
  useEffect(() => {
    if (saved) done()
  }, [saved, done])
  return (
    <>
      <ItemForm
        c={c}
        initial={item}
        submitLabel="Save changes"
        busy={update.result.waiting}
        onSubmit={(values) => update.send({ collection: c.id, item: { ...item, ...values, _id: item._id } })}
        onCancel={done}
      />
      <Refusal result={update.result} title="The platform refused to save this item." />
    </>
  )
}

function RemoveItem(props: { readonly c: KnownCollection; readonly item: Item; readonly title: string; readonly done: () => void }) {
  const remove = useWrite(writes.remove)
  const removed = AsyncResult.isSuccess(remove.result) && !remove.result.waiting
  const { done } = props
  useEffect(() => {
    if (removed) done()
  }, [removed, done])
  return (
    <div className="confirm" role="group" aria-label={`Remove ${props.title}?`}>
      <p>Remove “{props.title}”? This cannot be undone.</p>
      <Refusal result={remove.result} title="The platform refused to remove this item." />
      <div className="actions">
        <button type="button" className="danger" disabled={remove.result.waiting} onClick={() => remove.send({ collection: props.c.id, id: String(props.item._id) })}>
          Remove
        </button>
        <button type="button" className="secondary" onClick={done}>Keep it</button>
      </div>
    </div>
  )
}

/** A form's text as the item's values: numbers, lists, dates and references read by their field's type; empty fields left out. */
const valuesOf = (c: KnownCollection, texts: Readonly<Record<string, string>>): Record<string, unknown> => {
  const values: Record<string, unknown> = {}
  for (const f of c.fields) {
    const text = (texts[f.key] ?? "").trim()
    if (text === "") {
      values[f.key] = undefined
      continue
    }
    values[f.key] = f.type === "NUMBER"
      ? Number(text)
      : f.type === "ARRAY_STRING"
      ? text.split(",").map((t) => t.trim()).filter((t) => t !== "")
      : f.type === "DATETIME"
      ? new Date(`${text}T00:00:00.000Z`)
      : text
  }
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined))
}

function ItemForm(props: {
  readonly c: KnownCollection
  readonly initial?: Item
  readonly submitLabel: string
  readonly busy: boolean
  readonly onSubmit: (values: Record<string, unknown>) => void
  readonly onCancel?: () => void
}) {
  const { c, initial } = props
  const id = useId()
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(c.fields.map((f) => [f.key, initial === undefined ? "" : textOf(f, initial[f.key])]))
  )
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const values = valuesOf(c, texts)
    // an edit keeps no field the form emptied
    const cleared = initial === undefined ? {} : Object.fromEntries(c.fields.filter((f) => !(f.key in values)).map((f) => [f.key, undefined]))
    props.onSubmit({ ...cleared, ...values })
  }
  const input = (f: Field) => {
    const common = { id: `${id}-${f.key}`, value: texts[f.key] ?? "", onChange: (e: { target: { value: string } }) => setTexts((t) => ({ ...t, [f.key]: e.target.value })) }
    switch (f.type) {
      case "LONG_TEXT":
        return <textarea {...common} rows={3} />
      case "NUMBER":
        return <input {...common} type="number" step="any" />
      case "DATETIME":
        return <input {...common} type="date" />
      case "ARRAY_STRING":
        return <input {...common} type="text" aria-describedby={`${id}-${f.key}-hint`} />
      case "REFERENCE":
        return <ReferenceSelect field={f} {...common} />
      default:
        return <input {...common} type="text" required={f.key === c.displayField} />
    }
  }
  return (
    <form className="form item-form" onSubmit={submit}>
      {c.fields.map((f) => (
        <div key={f.key}>
          <label htmlFor={`${id}-${f.key}`}>{f.label}</label>
          {input(f)}
          {f.type === "ARRAY_STRING" ? <p className="hint" id={`${id}-${f.key}-hint`}>Separate them with commas.</p> : null}
        </div>
      ))}
      <div className="actions">
        <button type="submit" disabled={props.busy}>{props.busy ? "Saving…" : props.submitLabel}</button>
        {props.onCancel === undefined ? null : <button type="button" className="secondary" onClick={props.onCancel}>Cancel</button>}
      </div>
    </form>
  )
}

function ReferenceSelect(props: {
  readonly field: Field
  readonly id: string
  readonly value: string
  readonly onChange: (e: { target: { value: string } }) => void
}) {
  const names = useReferenceNames(props.field)
  return (
    <select id={props.id} value={props.value} onChange={props.onChange}>
      <option value="">None</option>
      {[...names].map(([id, name]) => <option key={id} value={id}>{name}</option>)}
      {props.value !== "" && !names.has(props.value) ? <option value={props.value}>{props.value}</option> : null}
    </select>
  )
}
