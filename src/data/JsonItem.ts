/**
 * An item whose wire form is written already: the JSON text of one object, dates in it as
 * `{"$date": iso}`, as a line of a JSONL file holds it. A bulk write sends the text as it is: a batch
 * job that parsed the line to check it neither encodes nor writes the item again, and keeps no copy of
 * it as objects while it waits to be sent (a string is one allocation; the parsed item is dozens).
 * Whoever makes one answers for the text: one JSON object, and `_id` the id it holds, if any.
 */
export class JsonItem {
  /** The item's JSON text: one object, nothing around it. */
  readonly json: string
  /** The `_id` the text holds (undefined when it holds none: a bulk insert or save gives it one). */
  readonly _id: string | undefined
  constructor(json: string, id: string | undefined) {
    this.json = json
    this._id = id
  }
}

/**
 * The item's text with `_id` set to `id` first: only for a text that holds no `_id` (a later key of the
 * same name would win when the platform reads it).
 */
export const withId = (json: string, id: string): string => {
  let i = 1
  // JSON's blanks only: the text is one object
  while (i < json.length && (json.charCodeAt(i) === 32 || json.charCodeAt(i) === 10 || json.charCodeAt(i) === 13 || json.charCodeAt(i) === 9)) i++
  const empty = json.charCodeAt(i) === 125 // `}`
  return `{"_id":${JSON.stringify(id)}${empty ? "" : ","}${json.slice(1)}`
}
