import { Providers, SignInForm } from "../client"

export default function SignInPage() {
  return (
    <main>
      <h1>Sign in</h1>
      <Providers><SignInForm /></Providers>
    </main>
  )
}
