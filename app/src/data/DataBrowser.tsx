/** The data browser: the site's collections and their items. */
export function DataBrowser(_props: { readonly path: ReadonlyArray<string> }) {
  return (
    <section aria-labelledby="data-title">
      <h1 id="data-title">Data</h1>
      <p>The site's collections.</p>
    </section>
  )
}
