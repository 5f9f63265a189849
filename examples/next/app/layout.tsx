import Link from "next/link"
import type { ReactNode } from "react"

export const metadata = { title: "sitefx on Next.js" }

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <nav>
          <Link href="/">Home</Link> · <Link href="/account">Account</Link> · <Link href="/sign-in">Sign in</Link>
        </nav>
        {children}
      </body>
    </html>
  )
}
