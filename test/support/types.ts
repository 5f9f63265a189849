/** Type-level checks for tests: `const same: Equals<A, B> = true` fails to compile unless A and B are the same type. */
export type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false

/** Compiles only when A and B are the same type: `sameType<G.TypeOf<typeof Guard>, Schema["Type"]>(true)`. */
export const sameType = <A, B>(_: Equals<A, B>): void => undefined
