// A member's sign-in page: a direct login with email and password, and the member's tokens saved where the client reads them (sitefx/first-screen, no Effect).
import { signIn } from "sitefx/first-screen"

const form = document.querySelector("form")!
form.addEventListener("submit", () => {
  const data = new FormData(form)
  signIn({ clientId: "my-client-id" }, { email: String(data.get("email")), password: String(data.get("password")) })
    .then((result) => console.log(result.loginState === "SUCCESS" ? "signed in" : result.loginState))
})
