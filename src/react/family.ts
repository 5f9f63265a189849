/**
 * One atom per key, as `Atom.family` makes them, for keys that are strings or carry one. `Atom.family`
 * compares its keys with Equal in a hash map of its own, which a page would carry only to compare
 * strings; a Map does that. The same lifetime: an atom no one holds any more is let go (and made
 * again when asked for), where the platform has WeakRef and FinalizationRegistry.
 */

/** The atom of each input, the same one for inputs of the same key, made by `make` on first use. */
export const keyedFamily = <I, A extends object>(keyOf: (input: I) => string, make: (input: I) => A): (input: I) => A => {
  if (typeof WeakRef === "undefined" || typeof FinalizationRegistry === "undefined") {
    const made = new Map<string, A>()
    return (input) => {
      const key = keyOf(input)
      let atom = made.get(key)
      if (atom === undefined) made.set(key, atom = make(input))
      return atom
    }
  }
  const made = new Map<string, WeakRef<A>>()
  const released = new FinalizationRegistry<string>((key) => {
    if (made.get(key)?.deref() === undefined) made.delete(key)
  })
  return (input) => {
    const key = keyOf(input)
    const known = made.get(key)?.deref()
    if (known !== undefined) return known
    const atom = make(input)
    made.set(key, new WeakRef(atom))
    released.register(atom, key)
    return atom
  }
}

/** The atom of each string key (a collection's Reactivity key, ...). */
export const stringFamily = <A extends object>(make: (key: string) => A): (key: string) => A => keyedFamily((key: string) => key, make)
