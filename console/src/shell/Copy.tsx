/** A value shown in full with a button that copies it (a code, a token, a secret). */
import { useState } from "react"

export function Copyable(props: { readonly label: string; readonly value: string }) {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no")
  const copy = () => {
    navigator.clipboard.writeText(props.value).then(() => setCopied("yes"), () => setCopied("failed"))
  }
  return (
    <span className="copyable">
      <span className="copyable-label">{props.label}</span>
      <code>{props.value}</code>
      <button type="button" className="small secondary" onClick={copy} aria-label={`Copy ${props.label.toLowerCase()} ${props.value}`}>
        {copied === "yes" ? "Copied" : "Copy"}
      </button>
      {copied === "failed" ? <span role="alert"> (the browser refused; select it instead)</span> : null}
    </span>
  )
}
