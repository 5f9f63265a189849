/** How the platform's offset-paged lists (backups, restorations, members) are asked for a page. */

/** `{ paging: { limit, offset } }` with the keys given, or nothing when neither is, as the official clients send it. */
export const offsetPaging = (options: { readonly limit?: number; readonly offset?: number }): { readonly paging?: { readonly limit?: number; readonly offset?: number } } =>
  options.limit === undefined && options.offset === undefined
    ? {}
    : { paging: { ...(options.limit === undefined ? {} : { limit: options.limit }), ...(options.offset === undefined ? {} : { offset: options.offset }) } }
