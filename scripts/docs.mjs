// `npm run docs`: the documentation site. First the API reference, built by TypeDoc from the doc comments
// of every public entry point (each subpath of package.json's "exports", read from its `sitefx-source`
// file) into docs/public/api, one module per subpath, named as consumers import it (`sitefx/data/items`);
// then the guides (docs/**/*.md) with VitePress, which copies the reference in, into docs/.vitepress/dist;
// then every link of the built site is followed (scripts/linkcheck.mjs). CI runs it with --strict, so a
// comment TypeDoc cannot read, a link to nothing in a comment or a page, or a missing anchor fails the build.
// `npm run docs -- --reference` builds the reference alone.
//
// TypeDoc runs on TypeScript's JavaScript API, which the project's compiler (the native TypeScript 7) does
// not have. The project already holds TypeScript 5.9 as `typescript5` (the API report uses it), so the hook
// below hands TypeDoc that package whenever it imports `typescript`. package.json's "overrides" point
// TypeDoc's peer dependency at the root `typescript` only so that npm accepts the tree; TypeDoc never loads it.
import { registerHooks } from "node:module"
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))

registerHooks({
  resolve: (specifier, context, next) =>
    specifier === "typescript" || specifier.startsWith("typescript/")
      ? next(specifier.replace(/^typescript/, "typescript5"), context)
      : next(specifier, context)
})

const { Application, Converter, ReflectionKind } = await import("typedoc")
const { default: ts } = await import("typescript5")

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
/** The repository's web address, from package.json (`git+https://host/owner/name.git` → `https://host/owner/name`). */
const repositoryUrl = String(pkg.repository?.url ?? pkg.repository).replace(/^git\+/, "").replace(/\.git$/, "")
/** Entry file → the name consumers import it by. */
const entries = new Map(
  Object.entries(pkg.exports)
    .filter(([subpath]) => subpath !== "./package.json")
    .map(([subpath, conditions]) => [resolve(root, conditions["sitefx-source"]), subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`])
)

const out = join(root, "docs/public/api")
const app = await Application.bootstrapWithPlugins({
  name: pkg.name,
  entryPoints: [...entries.keys()],
  entryPointStrategy: "resolve",
  tsconfig: join(root, "scripts/tsconfig.build.json"),
  // Type errors are the project compiler's to report (`npm test` runs it); TypeScript 5.9 only reads here.
  skipErrorChecking: true,
  readme: "none",
  // the reference sits inside the guides' site (docs/public/api → /api/), so its header links back to them
  navigationLinks: { Guides: "/guide/getting-started.html" },
  // a declaration's source links to its file in the repository (git is not asked: CI may build from an archive)
  disableGit: true,
  sourceLinkTemplate: `${repositoryUrl}/blob/main/{path}#L{line}`,
  out,
  excludePrivate: true,
  excludeInternal: true,
  sort: ["kind", "alphabetical"],
  // sitefx/react re-exports effect's AsyncResult, whose comments link to effect's own internals.
  externalSymbolLinkMappings: { effect: { "*": "https://www.npmjs.com/package/effect" } },
  validation: { invalidLink: true, notExported: false, notDocumented: false },
  treatWarningsAsErrors: process.argv.includes("--strict"),
  logLevel: "Warn"
})

// A module's opening comment (before its imports) says what the module is for; TypeDoc takes it as the
// module's only when it carries `@module`, which sitefx's modules do not write, so it is taken here.
app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
  if (reflection.comment !== undefined || !reflection.kindOf(ReflectionKind.Module | ReflectionKind.Namespace)) return
  const symbol = context.getSymbolFromReflection(reflection)
  const target = symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias ? context.checker.getAliasedSymbol(symbol) : symbol
  const file = target?.declarations?.find(ts.isSourceFile)
  const first = file?.statements[0]
  if (first !== undefined && (ts.isImportDeclaration(first) || ts.isExportDeclaration(first))) reflection.comment = context.getNodeComment(first, false)
})

const project = await app.convert()
if (project === undefined) {
  console.error("docs: TypeDoc could not convert the entry points")
  process.exit(1)
}
// TypeDoc names a module by its path under the common folder (`data/Items`); the reference names it by
// its subpath instead, which is what a reader types in an import.
const named = new Set()
for (const module of project.getReflectionsByKind(ReflectionKind.Module)) {
  const file = module.sources?.[0]?.fullFileName
  const name = file === undefined ? undefined : entries.get(resolve(file))
  if (name !== undefined) {
    module.name = name
    named.add(name)
  }
}
const unnamed = [...entries.values()].filter((name) => !named.has(name))
if (unnamed.length > 0) {
  console.error(`docs: no module in the reference for ${unnamed.join(", ")}`)
  process.exit(1)
}
app.validate(project)
if (app.logger.hasErrors() || (app.options.getValue("treatWarningsAsErrors") && app.logger.hasWarnings())) {
  console.error("docs: the reference has errors (above)")
  process.exit(1)
}
await app.generateDocs(project, out)
if (app.logger.hasErrors()) process.exit(1)
console.log(`docs: the reference of ${entries.size} entry points is in ${out}/index.html (${app.logger.warningCount} warnings)`)
if (process.argv.includes("--reference")) process.exit(0)

// The guides. VitePress runs in a process of its own (its Vite is not the app's), on the Node running this.
const { spawnSync } = await import("node:child_process")
const built = spawnSync(process.execPath, [join(root, "node_modules/vitepress/bin/vitepress.js"), "build", "docs"], { cwd: root, stdio: "inherit" })
if (built.status !== 0) {
  console.error("docs: the guides did not build (above)")
  process.exit(1)
}
const { checkLinks } = await import("./linkcheck.mjs")
const site = join(root, "docs/.vitepress/dist")
const broken = checkLinks(site)
if (broken.length > 0) {
  console.error(`docs: ${broken.length} broken links in the built site:\n${broken.map((b) => `  ${b}`).join("\n")}`)
  process.exit(1)
}
console.log(`docs: the site is in ${site} (every link checked)`)
