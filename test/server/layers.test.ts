/**
 * The local platform's layering, read from the import statements of every file under src/: the
 * server's files and its modules import one another without a cycle; a layer imports only its own or
 * lower layers (platform, the kernel < store < accounts < the modules < App, Core, LocalPlatform); a
 * module imports another only where {@link MODULE_IMPORTS} says; and the client never imports the
 * server (only the test kit and `sitefx serve` start it). `import type` counts: a type couples two
 * files as much as a value does.
 */
import { describe, expect, it } from "vitest"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))

/** The server's layers, lowest first; a top-level file of src/server is the top layer. */
const LAYERS: ReadonlyArray<ReadonlyArray<string>> = [
  ["platform"],
  ["store"],
  ["accounts"],
  ["oauth", "identity", "data", "catalog", "ecom", "events", "dev"]
]
const TOP = LAYERS.length

/**
 * The imports from one module to another that the layering allows: the dev endpoints administer
 * members; ecom prices its carts from the catalog's products (and takes their stock when an order is
 * placed), and its checkout page opens from oauth's redirect sessions.
 */
const MODULE_IMPORTS: Record<string, ReadonlyArray<string>> = {
  dev: ["identity"],
  ecom: ["catalog", "oauth"]
}

/** The files outside src/server that may import it: they start the platform. */
const STARTS_THE_PLATFORM = (file: string) => file.startsWith("testing/") || file === "cli/serve.ts"

/** The package's own entry points ("sitefx/data" and the like), resolved to their sources. */
const selfExports = (root: string): Record<string, string> =>
  Object.fromEntries(
    Object.entries(
      JSON.parse(readFileSync(join(root, "package.json"), "utf8")).exports as Record<string, unknown>
    ).flatMap(([key, target]) => {
      const source = typeof target === "object" && target !== null ? (target as Record<string, unknown>)["sitefx-source"] : undefined
      return typeof source === "string" ? [[join("sitefx", key), resolve(root, source)] as const] : []
    })
  )

const sourceFiles = (src: string): Array<string> =>
  (readdirSync(src, { recursive: true }) as Array<string>)
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts"))
    .map((file) => join(src, file))

/** What a file imports: static imports and re-exports (types too) and dynamic `import("...")`, outside comments. */
const specifiers = (text: string): Array<string> => {
  const code = text
    .replace(/^\s*\/\*[\s\S]*?\*\//gm, "")
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\*)/.test(line))
    .join("\n")
  const found: Array<string> = []
  for (const match of code.matchAll(/^\s*(?:import|export)\b[^"'`;]*?\bfrom\s*["']([^"']+)["']/gm)) found.push(match[1]!)
  for (const match of code.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) found.push(match[1]!)
  for (const match of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push(match[1]!)
  return found
}

interface Edge {
  readonly from: string
  readonly to: string
}

/** The module of a file under src/server (relative to it): its folder, or "top" for App, Core and the like. */
const moduleOf = (serverFile: string): string => {
  const parts = serverFile.split("/")
  return parts.length === 1 ? "top" : parts[0]!
}

/** The layer of a module, or undefined for a folder not in the order. */
const layerOfModule = (module: string): number | undefined => {
  if (module === "top") return TOP
  const index = LAYERS.findIndex((layer) => layer.includes(module))
  return index === -1 ? undefined : index
}

/** The layer of a file under src/server (relative to it). */
const layerOf = (serverFile: string): number | undefined => layerOfModule(moduleOf(serverFile))

/** Strongly connected components of more than one file (or a file importing itself), by Tarjan. */
const cycles = (nodes: ReadonlyArray<string>, edges: ReadonlyArray<Edge>): Array<Array<string>> => {
  const next = new Map<string, Array<string>>(nodes.map((node) => [node, []]))
  for (const edge of edges) next.get(edge.from)?.push(edge.to)
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const components: Array<Array<string>> = []
  let counter = 0
  const visit = (node: string): void => {
    index.set(node, counter)
    low.set(node, counter)
    counter++
    stack.push(node)
    onStack.add(node)
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!))
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: Array<string> = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      const selfLoop = component.length === 1 && (next.get(node) ?? []).includes(node)
      if (component.length > 1 || selfLoop) components.push(component.sort())
    }
  }
  for (const node of nodes) if (!index.has(node)) visit(node)
  return components
}

/** The layering of src/ under `root` (this repository unless told): paths are relative to src/. */
export const analyse = (root: string = ROOT) => {
  const src = join(root, "src")
  const entries = selfExports(root)
  const files = sourceFiles(src)
  const edges: Array<Edge> = []
  const unresolved: Array<string> = []
  for (const file of files) {
    for (const specifier of specifiers(readFileSync(file, "utf8"))) {
      const target = specifier.startsWith(".") ? resolve(dirname(file), specifier) : entries[specifier]
      if (target === undefined || !target.startsWith(src)) continue
      if (!files.includes(target)) unresolved.push(`${relative(src, file)} -> ${specifier}`)
      edges.push({ from: relative(src, file), to: relative(src, target) })
    }
  }
  const isServer = (file: string) => file.startsWith("server/")
  const inServer = (file: string) => file.slice("server/".length)
  const serverFiles = files.map((file) => relative(src, file)).filter(isServer)
  const serverEdges = edges.filter((edge) => isServer(edge.from) && isServer(edge.to))
  const unplaced = [...new Set(serverFiles.filter((file) => layerOf(inServer(file)) === undefined))]
  const upward = serverEdges
    .filter((edge) => (layerOf(inServer(edge.from)) ?? TOP) < (layerOf(inServer(edge.to)) ?? TOP))
    .map((edge) => `${edge.from} -> ${edge.to}`)
  const moduleEdges = serverEdges
    .map((edge) => ({ from: moduleOf(inServer(edge.from)), to: moduleOf(inServer(edge.to)) }))
    .filter((edge) => edge.from !== edge.to)
  const modules = [...new Set(serverFiles.map((file) => moduleOf(inServer(file))))]
  const sideways = [
    ...new Set(
      moduleEdges
        .filter((edge) => layerOfModule(edge.from) === layerOfModule(edge.to))
        .map((edge) => `${edge.from} -> ${edge.to}`)
    )
  ].sort()
  const clientToServer = edges
    .filter((edge) => !isServer(edge.from) && isServer(edge.to) && !STARTS_THE_PLATFORM(edge.from))
    .map((edge) => `${edge.from} -> ${edge.to}`)
  return {
    files: files.length,
    imports: edges.length,
    unresolved,
    unplaced,
    cycles: cycles(serverFiles, serverEdges),
    moduleCycles: cycles(modules, moduleEdges),
    upward,
    sideways,
    clientToServer
  }
}

describe("the layering of src/", () => {
  const layering = analyse()

  it("reads the imports of every file", () => {
    expect(layering.files).toBeGreaterThan(100)
    expect(layering.imports).toBeGreaterThan(1000)
    expect(layering.unresolved).toEqual([])
  })

  it("places every folder of src/server in a layer", () => {
    expect(layering.unplaced).toEqual([])
  })

  it("has no import cycle among the server's files", () => {
    expect(layering.cycles).toEqual([])
  })

  it("has no import cycle among the server's modules", () => {
    expect(layering.moduleCycles).toEqual([])
  })

  it("imports no higher layer of the server from a lower one", () => {
    expect(layering.upward).toEqual([])
  })

  it("imports one module from another only where the list says", () => {
    const allowed = Object.entries(MODULE_IMPORTS).flatMap(([from, tos]) => tos.map((to) => `${from} -> ${to}`)).sort()
    expect(layering.sideways).toEqual(allowed)
  })

  it("keeps the client off the server: only the test kit and `sitefx serve` import it", () => {
    expect(layering.clientToServer).toEqual([])
  })
})
