// The session route: the page saves a sign-in or sign-out here and renews its tokens; a redirect login comes back here.
import { site } from "../../../lib/site"

export const { GET, POST } = site.route
