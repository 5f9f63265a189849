/**
 * How catalog query builders write their filters, as the platform's own builders do: the conditions
 * in the order given under one flat `$and`, dates as ISO text, `{}` for no condition.
 */
type Tree = Record<string, unknown>

const isTree = (v: unknown): v is Tree => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date)

/** Dates as ISO text (JSON's own writing of a Date). */
export const plain = (value: unknown): unknown => {
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value)) return value.map(plain)
  if (isTree(value)) {
    const out: Tree = {}
    for (const [k, v] of Object.entries(value)) out[k] = plain(v)
    return out
  }
  return value
}

const soleKey = (tree: Tree, key: string): boolean => {
  const keys = Object.keys(tree)
  return keys.length === 1 && keys[0] === key && Array.isArray(tree[key])
}

/** `$and`/`$or` of one member is that member; a member of the same operator is spliced in. */
export const tidy = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(tidy)
  if (!isTree(node)) return node
  for (const op of ["$and", "$or"]) {
    if (soleKey(node, op)) {
      const members = (node[op] as Array<unknown>).map(tidy).flatMap((m) => (isTree(m) && soleKey(m, op) ? m[op] as Array<unknown> : [m]))
      return members.length === 1 ? members[0] : { [op]: members }
    }
  }
  const out: Tree = {}
  for (const [k, v] of Object.entries(node)) out[k] = tidy(v)
  return out
}

/** The conditions so far and one more, under one flat `$and`. */
export const join = (a: Tree, b: Tree): Tree => {
  if (Object.keys(a).length === 0) return b
  if (Object.keys(b).length === 0) return a
  const members = (t: Tree) => (soleKey(t, "$and") ? t["$and"] as Array<unknown> : [t])
  return { $and: [...members(a), ...members(b)] }
}

/** A builder's conditions as the filter it sends. */
export const filterOf = (conditions: ReadonlyArray<Tree>): Tree => tidy(plain(conditions.reduce<Tree>((acc, c) => join(acc, c), {}))) as Tree
