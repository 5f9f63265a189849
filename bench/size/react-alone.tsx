// React alone: a root that renders one element, the share of any React page that is React's own.
import { createRoot } from "react-dom/client"

createRoot(document.getElementById("root")!).render(<div>Hello</div>)
