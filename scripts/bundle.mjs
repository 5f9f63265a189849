// The `sitefx` command as one JavaScript file, Effect and the Node platform included. Node resolves,
// reads and compiles one file instead of some 600 modules (with their package.json lookups), which is
// most of what `sitefx serve` spent before it could answer. The library's own modules in dist/ stay as
// they are: consumers import them, not this file.
//
// `npm run build` writes dist/cli/sitefx.bundle.js for the package. In a checkout, bin/sitefx.mjs asks
// `freshBundle` for .tmp/cli/sitefx.js, which is built again whenever a file it was made from changed.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { basename, dirname, join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"

/** This repository; tests pass another root (a folder with src/cli/main.ts and node_modules). */
const repository = fileURLToPath(new URL("..", import.meta.url))
/** The checkout's bundle. */
const cachedIn = (root) => join(root, ".tmp/cli/sitefx.js")
/** The first line of the checkout's bundle: when it was built, and from which files. */
const HEADER = "// sitefx bundle of "
/** What the bundle depends on besides the modules in it: installs, and the build settings here. */
const alsoInputs = ["package.json", "node_modules/.package-lock.json", fileURLToPath(import.meta.url)]

// A few dependencies (ws, under the Node HTTP server) are CommonJS and require Node's modules; an ES
// module has no `require` of its own.
const banner = `import { createRequire as sitefxCreateRequire } from "node:module"; const require = sitefxCreateRequire(import.meta.url);`

/**
 * In a bundle, `import.meta.url` names the bundle, not the module it is written in. So in each source
 * that reads it, it names again the module the source stands for where the bundle runs (`twin`: the
 * source itself in a checkout, its compiled file in dist/), and a file found relative to a module
 * (package.json, the built app, a page's assets) is found from the bundle too.
 */
const moduleUrls = (root, outFile, twin) => ({
  name: "sitefx-module-urls",
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (!args.path.startsWith(join(root, "src") + sep)) return undefined
      const text = await readFile(args.path, "utf8")
      if (!text.includes("import.meta.url")) return undefined
      const path = relative(dirname(outFile), twin(args.path)).split(sep).join("/")
      const url = `new URL(${JSON.stringify(path.startsWith(".") ? path : `./${path}`)}, import.meta.url).href`
      return { contents: text.replaceAll("import.meta.url", url), loader: args.path.endsWith(".tsx") ? "tsx" : "ts" }
    })
  }
})

/**
 * Bundles `root`'s src/cli/main.ts for `outFile`, where `twin` says which file stands for a source (see
 * moduleUrls); the JavaScript, and the files it was made from (relative to the root).
 */
export const bundle = async ({ root = repository, outFile, twin }) => {
  const esbuild = await import("esbuild")
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [join(root, "src/cli/main.ts")],
    outfile: outFile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22.19",
    banner: { js: banner },
    plugins: [moduleUrls(root, outFile, twin)],
    write: false,
    metafile: true,
    logLevel: "silent"
  }).finally(() => esbuild.stop())
  return { code: result.outputFiles[0].text, inputs: Object.keys(result.metafile.inputs) }
}

/** Writes the package's bundle to `outFile` in dist/ (`npm run build`), beside the compiled modules it stands for. */
export const writeBundle = async (outFile) => {
  const src = join(repository, "src")
  const dist = join(repository, "dist")
  const { code, inputs } = await bundle({ outFile, twin: (source) => join(dist, relative(src, source)).replace(/\.tsx?$/, ".js") })
  mkdirSync(dirname(outFile), { recursive: true })
  const notices = `${outFile.replace(/\.js$/, "")}.licenses.txt`
  writeFileSync(outFile, `// Holds code of the packages named, with their licences, in ./${basename(notices)}\n${code}`)
  writeFileSync(notices, licences(inputs))
}

/** The licence texts of the packages whose code a bundle holds (each package once, by its node_modules folder). */
const licences = (inputs) => {
  const packages = new Set()
  for (const input of inputs) {
    const found = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)
    if (found !== null) packages.add(found[1])
  }
  return [...packages].sort().map((dir) => {
    const folder = join(repository, dir)
    const { name, version, license } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"))
    const file = readdirSync(folder).find((f) => /^licen[cs]e/i.test(f))
    const text = file === undefined ? `(${license ?? "no licence named"}; no licence file in the package)` : readFileSync(join(folder, file), "utf8").trim()
    return `${name} ${version} (${license ?? "unknown"})\n\n${text}\n`
  }).join(`\n${"-".repeat(72)}\n\n`)
}

/**
 * What to watch of the files a bundle was made from: the sources each, a dependency by its package.json
 * (npm writes it anew with every version it installs). Only files: esbuild may also name a module it
 * made up, which no stat would find.
 */
const watched = (root, inputs) => {
  const packages = new Set()
  const files = []
  for (const input of inputs) {
    const found = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)
    if (found !== null) packages.add(`${found[1]}/package.json`)
    else files.push(input)
  }
  return [...files, ...packages].filter((file) => existsSync(resolve(root, file)))
}

/** The first line of a file (the header of the checkout's bundle), without reading the rest. */
const firstLine = (file) => {
  const fd = openSync(file, "r")
  try {
    let text = ""
    const chunk = Buffer.alloc(64 * 1024)
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null)
      text += chunk.toString("utf8", 0, read)
      const end = text.indexOf("\n")
      if (end >= 0) return text.slice(0, end)
      if (read === 0) return text
    }
  } finally {
    closeSync(fd)
  }
}

/**
 * Whether the checkout's bundle was built after the last change to every file it was made from: every
 * write, and every file put in place (an install, a checkout), moves a file's ctime, which cannot be set
 * back (a modification time can, and can lie in the future); a file gone is a change. Some 300 stats:
 * a few milliseconds.
 */
const isFresh = (root) => {
  const cached = cachedIn(root)
  if (!existsSync(cached)) return false
  try {
    const line = firstLine(cached)
    if (!line.startsWith(HEADER)) return false
    const { builtAt, inputs } = JSON.parse(line.slice(HEADER.length))
    const changed = (input, stat) => (stat === undefined ? inputs.includes(input) : stat.ctimeMs > builtAt)
    return ![...inputs, ...alsoInputs].some((input) => changed(input, statSync(resolve(root, input), { throwIfNoEntry: false })))
  } catch {
    return false
  }
}

/**
 * The checkout's bundle, built first when a source changed since it was (about half a second); or
 * undefined when it cannot be built (no esbuild installed, or a source esbuild cannot read), and the
 * sources have to run as they are.
 */
export const freshBundle = async (root = repository) => {
  const cached = cachedIn(root)
  if (isFresh(root)) return cached
  const builtAt = Date.now()
  let built
  try {
    built = await bundle({ root, outFile: cached, twin: (source) => source })
  } catch (error) {
    const at = error?.errors?.[0]
    const what = error?.code === "ERR_MODULE_NOT_FOUND"
      ? "esbuild is not installed"
      : at?.location ? `${at.location.file}:${at.location.line}: ${at.text}` : String(error?.message ?? error).split("\n")[0]
    process.stderr.write(`sitefx: running the sources, slower to start: the command could not be bundled (${what})\n`)
    return undefined
  }
  const inputs = watched(root, built.inputs)
  mkdirSync(dirname(cached), { recursive: true })
  // several commands may start at once (tests do): each writes its own file, and the rename is atomic
  const own = `${cached}.${process.pid}.tmp`
  writeFileSync(own, `${HEADER}${JSON.stringify({ builtAt, inputs })}\n${built.code}`)
  renameSync(own, cached)
  return cached
}

// `node scripts/bundle.mjs [root]`: builds the checkout's bundle if it is stale and says where it is;
// exits 1 when it cannot be built
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = await freshBundle(process.argv[2] ?? repository)
  if (file === undefined) process.exitCode = 1
  else console.log(file)
}
