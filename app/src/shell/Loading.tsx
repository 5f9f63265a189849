/** The loading and error states every screen shows, without Effect: the first screen's bootstrap shows them too. */

export function Loading(props: { readonly label: string }) {
  return <p className="loading" role="status" aria-live="polite">{props.label}…</p>
}

export function ErrorBox(props: { readonly title: string; readonly message: string; readonly retry?: () => void }) {
  return (
    <div className="error" role="alert">
      <p><strong>{props.title}</strong> {props.message}</p>
      {props.retry === undefined ? null : <button type="button" onClick={props.retry}>Try again</button>}
    </div>
  )
}
