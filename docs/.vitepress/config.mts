import { defineConfig } from "vitepress"

// The guides of sitefx. `npm run docs` builds them with the API reference (TypeDoc, written into
// public/api first) into docs/.vitepress/dist and checks every link of the result.
export default defineConfig({
  title: "sitefx",
  description: "An Effect client for a site-builder platform's headless APIs, and a local platform that speaks its wire protocol",
  cleanUrls: false,
  // a link to a page that does not exist fails the build
  ignoreDeadLinks: false,
  srcExclude: ["public/**"],
  themeConfig: {
    nav: [
      { text: "Guide", link: "/guide/getting-started" },
      { text: "API reference", link: "/api/index.html", target: "_self" }
    ],
    sidebar: [
      {
        text: "Start",
        items: [
          { text: "Getting started", link: "/guide/getting-started" },
          { text: "Connecting a real site", link: "/guide/real-site" },
          { text: "Moving from the official packages", link: "/guide/migrating" }
        ]
      },
      {
        text: "The client",
        items: [
          { text: "Sessions and members", link: "/guide/sessions" },
          { text: "Data collections", link: "/guide/data" },
          { text: "The store", link: "/guide/store" },
          { text: "Selling", link: "/guide/selling" },
          { text: "Events and webhooks", link: "/guide/events" },
          { text: "React", link: "/guide/react" },
          { text: "Next.js", link: "/guide/next" },
          { text: "Errors and retries", link: "/guide/errors" }
        ]
      },
      {
        text: "Tools",
        items: [
          { text: "The batch command", link: "/guide/cli" },
          { text: "The local platform", link: "/guide/local-platform" },
          { text: "Size and speed", link: "/guide/performance" }
        ]
      },
      { text: "Reference", items: [{ text: "API reference", link: "/api/index.html", target: "_self" }] }
    ],
    search: { provider: "local" },
    outline: { level: [2, 3] }
  }
})
