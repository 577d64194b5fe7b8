/**
 * The Toolstep code bundled into an exported TypeScript loop: `src/sandbox/export-kit.ts` and
 * everything it imports (the wire formats, validation, the endpoint client, tool invocation),
 * bundled with esbuild into one IIFE script whose only import, `zod`, is handed in by the
 * exported file. Built from the sources each time, so an export always carries the parsers the
 * playground runs.
 *
 * The loop itself is not bundled: it is written readably into the exported file, copied from
 * the `export:` regions of `src/sandbox/export-loop.node.ts` (type-checked against the kit there).
 *
 * Served by the Vite plugin below as `virtual:toolstep-export-kit` (default export:
 * `{ kit, parts }`, see {@link ExportKit}), so `npm run dev`, `npm run build`, `npm run build:cli` and the tests all get it with
 * nothing generated to commit.
 */
import { build as esbuild, type Plugin as EsbuildPlugin } from 'esbuild'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Plugin } from 'vite'

/** Module id of the bundled kit. */
export const EXPORT_KIT_ID = 'virtual:toolstep-export-kit'

const ENTRY = 'src/sandbox/export-kit.ts'
const LOOP = 'src/sandbox/export-loop.node.ts'

/**
 * The `//#region export:NAME` … `//#endregion` blocks of the loop source, without the markers.
 * @throws Error when a region is not closed.
 */
export function loopParts(source: string): Record<string, string> {
  const parts: Record<string, string> = {}
  const opener = /^\/\/#region export:(\w+)\r?\n/gm
  for (let match = opener.exec(source); match; match = opener.exec(source)) {
    const start = match.index + match[0].length
    const end = source.indexOf('//#endregion', start)
    if (end < 0) throw new Error(`${LOOP}: region export:${match[1]} is not closed.`)
    parts[match[1]!] = source.slice(start, end).trimEnd()
  }
  return parts
}

/** What {@link buildExportKit} produced. */
export interface ExportKit {
  /** The regions of `src/sandbox/export-loop.node.ts` copied into exports, by name (`types`, `loop`, `main`, `replay`). */
  parts: Record<string, string>
  /**
   * A script body for `new Function('require', body)`: it returns the kit's exports and calls
   * `require('zod')` for zod. Minified, ASCII only.
   */
  code: string
  /** The source files (absolute paths) bundled into it. */
  sources: string[]
}

/**
 * Bundles the kit (esbuild, tens of ms). Async because esbuild plugins are.
 * @param root - The project root (holding `src/` and `node_modules/`).
 * @throws Error with esbuild's messages when the kit does not bundle.
 */
export async function buildExportKit(root: string = process.cwd()): Promise<ExportKit> {
  const result = await esbuild({
    entryPoints: [join(root, ENTRY)],
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    format: 'iife',
    globalName: 'toolstepKit',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    external: ['zod'],
    minify: true,
    charset: 'ascii',
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [sideEffectFree(['acorn'])],
  })
  const output = result.outputFiles[0]
  if (!output) throw new Error('Bundling the export kit produced no output.')
  const sources = Object.keys(result.metafile.inputs).filter((input) => !input.includes('node_modules')).map((input) => join(root, input))
  const loop = join(root, LOOP)
  return { code: `${output.text.trim()}\nreturn toolstepKit;`, parts: loopParts(readFileSync(loop, 'utf8')), sources: [...sources, loop] }
}

/**
 * Marks packages as free of side effects, so what the kit does not call is left out. acorn
 * locates syntax errors in the sandbox (never needed by an exported loop) but does not declare
 * itself side-effect free.
 */
function sideEffectFree(packages: readonly string[]): EsbuildPlugin {
  const filter = new RegExp(`^(${packages.join('|')})$`)
  return {
    name: 'side-effect-free',
    setup(build) {
      build.onResolve({ filter }, async (args) => {
        if (args.pluginData === 'resolving') return undefined
        const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'resolving' })
        return { ...found, sideEffects: false }
      })
    },
  }
}

/** Vite plugin serving `virtual:toolstep-export-kit`. In dev, editing a bundled source rebuilds it. */
export function exportKitPlugin(): Plugin {
  const resolved = `\0${EXPORT_KIT_ID}`
  return {
    name: 'toolstep-export-kit',
    resolveId: (id) => (id === EXPORT_KIT_ID ? resolved : undefined),
    async load(id) {
      if (id !== resolved) return undefined
      const { code, parts, sources } = await buildExportKit()
      for (const source of sources) this.addWatchFile(source)
      return `export default ${JSON.stringify({ kit: code, parts })}\n`
    },
  }
}
