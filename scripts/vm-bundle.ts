/**
 * Builds the runtime that runs inside the browser sandbox's QuickJS VM: `src/sandbox/vm/vm-entry.ts`
 * and everything it imports (the shared runtime, the authoring API, zod, the protocols), bundled by
 * esbuild into one script of plain JavaScript that QuickJS can evaluate. sucrase, acorn,
 * `src/sandbox/compile.ts` and `src/sandbox/top-level-await.ts` are swapped for the shims in `src/sandbox/vm/`, which call back into
 * the worker (they would be slow interpreted, and QuickJS ignores `sourceURL`); so are the
 * protocols (only `callTools` renders with them) and zod's locales other than English, which
 * would only cost parse time at every sandbox start.
 *
 * Used as the Vite plugin below: `import source from 'virtual:toolstep-vm-runtime'` is the bundle
 * as a string, in `npm run dev`, `npm run build` and the unit tests alike, with nothing to commit.
 */
import { fileURLToPath } from 'node:url'
import { build, type Plugin as EsbuildPlugin } from 'esbuild'
import type { Plugin } from 'vite'

/** Module id of the bundle's source text. */
export const VM_RUNTIME_ID = 'virtual:toolstep-vm-runtime'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const ENTRY = here('../src/sandbox/vm/vm-entry.ts')
const SHIMS: Record<string, string> = {
  sucrase: here('../src/sandbox/vm/sucrase-shim.ts'),
  acorn: here('../src/sandbox/vm/acorn-shim.ts'),
}
const COMPILE = here('../src/sandbox/vm/compile-quickjs.ts')
const TOP_LEVEL_AWAIT = here('../src/sandbox/vm/top-level-await-shim.ts')
const PROTOCOLS = here('../src/sandbox/vm/protocols-shim.ts')
const ZOD_LOCALES = here('../src/sandbox/vm/zod-locales-shim.ts')
const AUTHORING = here('../src/sandbox/authoring.ts')

const swaps: EsbuildPlugin = {
  name: 'toolstep-vm-swaps',
  setup(context) {
    context.onResolve({ filter: /^(sucrase|acorn)$/ }, (args) => ({ path: SHIMS[args.path] as string }))
    context.onResolve({ filter: /^toolstep$/ }, () => ({ path: AUTHORING }))
    context.onResolve({ filter: /\/core\/protocols\/index$/ }, () => ({ path: PROTOCOLS }))
    context.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (args.importer.includes('/node_modules/zod/') ? { path: ZOD_LOCALES } : undefined))
    // The runtime's own `./compile` (not the shim, which lives in vm/ and does not import it).
    context.onResolve({ filter: /\/top-level-await$/ }, (args) => (args.importer.includes('/src/sandbox/') && !args.importer.includes('/src/sandbox/vm/') ? { path: TOP_LEVEL_AWAIT } : undefined))
    context.onResolve({ filter: /\/compile$/ }, (args) => (args.importer.includes('/src/sandbox/') && !args.importer.includes('/src/sandbox/vm/') ? { path: COMPILE } : undefined))
  },
}

/**
 * Bundles the VM runtime. Returns the script's text and the files it was built from.
 * @throws when esbuild fails (the message lists the errors).
 */
export async function buildVmRuntime(): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    // QuickJS 2024-01 speaks ES2023; private fields and classes are kept.
    target: 'es2022',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    minify: true,
    keepNames: true,
    legalComments: 'none',
    metafile: true,
    plugins: [swaps],
    logLevel: 'silent',
  })
  const output = result.outputFiles[0]
  if (!output) throw new Error('esbuild produced no VM runtime bundle.')
  return { code: output.text, inputs: Object.keys(result.metafile.inputs).map((input) => fileURLToPath(new URL(input, `file://${process.cwd()}/`))) }
}

/** The Vite plugin serving {@link VM_RUNTIME_ID}. */
export function vmRuntimePlugin(): Plugin {
  const resolved = `\0${VM_RUNTIME_ID}`
  return {
    name: 'toolstep-vm-runtime',
    resolveId: (id) => (id === VM_RUNTIME_ID ? resolved : undefined),
    async load(id) {
      if (id !== resolved) return undefined
      const { code, inputs } = await buildVmRuntime()
      for (const input of inputs) this.addWatchFile(input)
      return `export default ${JSON.stringify(code)}`
    },
  }
}
