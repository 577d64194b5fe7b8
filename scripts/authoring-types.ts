/**
 * The editor's type declarations of the `toolstep` module, generated from the authoring source
 * (`src/sandbox/authoring.ts`) rather than kept by hand, so what Monaco checks user code against
 * is what the sandbox runs.
 *
 * How: `tsc --declaration --emitDeclarationOnly` emits `.d.ts` files for the authoring module
 * and what it imports; a second `tsc --listFilesOnly` run on the emitted entry lists exactly the
 * declaration files the module's types need (the emitted ones it reaches, plus zod's own
 * `.d.ts` files, since `z` is the real zod). Each becomes an editor "extra lib" at the path
 * TypeScript's Node resolution looks for from a user file in `file:///`:
 * `file:///node_modules/toolstep/index.d.ts` (re-exporting the authoring module) and
 * `file:///node_modules/zod/…`.
 *
 * Used by the Vite plugin below (virtual module `virtual:toolstep-types`, so `npm run dev`,
 * `npm run build` and the tests all get it with nothing to commit) and by the unit test that
 * type-checks user-style code against the generated files.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, relative, sep } from 'node:path'
import type { Plugin } from 'vite'

/** One declaration file for the editor: its URI in Monaco's file system, and its text. */
export interface EditorLib {
  path: string
  content: string
}

/** What {@link buildAuthoringLibs} produced. */
export interface AuthoringLibs {
  /** The declaration files, entry (`toolstep/index.d.ts`) first. */
  libs: EditorLib[]
  /** The source files (absolute paths) the `toolstep` declarations were emitted from. */
  sources: string[]
}

/** Module name user code imports the authoring API from. */
export const VIRTUAL_ID = 'virtual:toolstep-types'

const ENTRY = 'src/sandbox/authoring.ts'
const MONACO_ROOT = 'file:///node_modules/'

function runTsc(root: string, args: string[]): string {
  try {
    return execFileSync(process.execPath, [join(root, 'node_modules', 'typescript-native', 'bin', 'tsc'), ...args], { encoding: 'utf8', stdio: 'pipe' })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    throw new Error(`Generating the toolstep editor types failed:\n${stdout ?? ''}${stderr ?? ''}`)
  }
}

const toPosix = (path: string) => path.split(sep).join('/')

/**
 * Emits and collects the declarations. Synchronous; runs `tsc` twice (about a second each).
 *
 * @param root - The project root (holding `src/` and `node_modules/`).
 * @throws Error with tsc's output when the authoring module does not compile, or when its
 *   declarations need a package other than zod (the editor would not know it).
 */
export function buildAuthoringLibs(root: string = process.cwd()): AuthoringLibs {
  const work = mkdtempSync(join(tmpdir(), 'toolstep-types-'))
  const out = join(work, 'toolstep')
  const zod = join(root, 'node_modules', 'zod')
  try {
    runTsc(root, [
      ...['--declaration', '--emitDeclarationOnly', '--ignoreConfig', '--outDir', out, '--rootDir', join(root, 'src')],
      ...['--strict', '--target', 'ES2022', '--lib', 'ES2023', '--types', '', '--module', 'ESNext', '--moduleResolution', 'bundler'],
      ...['--verbatimModuleSyntax', '--skipLibCheck', join(root, ENTRY)],
    ])
    writeFileSync(join(out, 'index.d.ts'), "export * from './sandbox/authoring'\n")
    // zod through its ESM declarations, the files Monaco's resolution will find at node_modules/zod/index.d.ts.
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { noEmit: true, types: [], lib: ['ES2023'], module: 'ESNext', moduleResolution: 'bundler', paths: { zod: [join(zod, 'index.d.ts')] } },
        files: ['toolstep/index.d.ts'],
      }),
    )
    const listed = runTsc(root, ['-p', join(work, 'tsconfig.json'), '--listFilesOnly'])
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
    const libs: EditorLib[] = []
    const sources: string[] = []
    for (const file of listed) {
      const inOut = relative(out, file)
      const inZod = relative(zod, file)
      if (!inOut.startsWith('..')) {
        libs.push({ path: `${MONACO_ROOT}toolstep/${toPosix(inOut)}`, content: readFileSync(file, 'utf8') })
        if (inOut !== 'index.d.ts') sources.push(join(root, 'src', inOut.replace(/\.d\.ts$/, '.ts')))
      } else if (!inZod.startsWith('..')) {
        libs.push({ path: `${MONACO_ROOT}zod/${toPosix(inZod)}`, content: readFileSync(file, 'utf8') })
      } else if (!/^lib\.[\w.]+\.d\.ts$/.test(basename(file))) {
        throw new Error(`The toolstep editor types need ${file}, which the editor would not have. Keep the authoring module's types to core, the sandbox and zod.`)
      }
    }
    libs.sort((a, b) => (a.path.endsWith('/toolstep/index.d.ts') ? -1 : b.path.endsWith('/toolstep/index.d.ts') ? 1 : 0))
    return { libs, sources }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/**
 * Vite plugin serving `virtual:toolstep-types` (default export: `EditorLib[]`). In dev, editing a
 * source the declarations come from regenerates them.
 */
export function authoringTypesPlugin(): Plugin {
  const resolved = `\0${VIRTUAL_ID}`
  return {
    name: 'toolstep-authoring-types',
    resolveId: (id) => (id === VIRTUAL_ID ? resolved : undefined),
    load(id) {
      if (id !== resolved) return undefined
      const { libs, sources } = buildAuthoringLibs()
      for (const source of sources) this.addWatchFile(source)
      return `export default ${JSON.stringify(libs)}\n`
    },
  }
}
