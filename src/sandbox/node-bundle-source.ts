/**
 * Running a sandbox entry from its TypeScript source (tests, `npm run cli`): the entry is bundled
 * once per process with esbuild into one ES module in a temporary folder, removed at exit.
 *
 * A TypeScript loader registered inside each worker or child costs most of a second per start
 * (every module of the graph transpiled again); one bundle costs about that once, and every start
 * after it is as fast as the built CLI's.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const bundles = new Map<string, string>()

/**
 * The path of a bundle of the TypeScript entry `source` (an ES module, `.mjs`), made on first use.
 *
 * @param source the entry's file URL (`new URL('./x.ts', import.meta.url)`)
 * @throws Error when the source file does not exist (a CLI build without its built entries), or
 *   esbuild's error when the source does not compile
 */
export function bundledEntry(source: URL): string {
  const path = fileURLToPath(source)
  const known = bundles.get(path)
  if (known !== undefined) return known
  if (!existsSync(path)) throw new Error(`${basename(path)} was not found in ${fileURLToPath(new URL('.', source))}; run \`npm run build:cli\` first.`)
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild')
  const outDir = mkdtempSync(join(tmpdir(), 'toolstep-sandbox-'))
  const outfile = join(outDir, basename(path).replace(/\.ts$/, '.mjs'))
  esbuild.buildSync({ entryPoints: [path], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'silent' })
  process.once('exit', () => rmSync(outDir, { recursive: true, force: true }))
  bundles.set(path, outfile)
  return outfile
}
