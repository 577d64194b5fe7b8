/**
 * First-load size benchmark (issue 11 item 14): builds the app for production into a temporary
 * folder and reports, raw and gzip-compressed (level 9):
 * - the entry chunk named in index.html and the chunks it preloads, against the goal of at most
 *   120 KB gzip for the entry: what the page loads before anything else;
 * - the locale chunks, one per language: the first paint (the page frame in the user's
 *   language) waits for the entry, its preloads and the active language's chunk;
 * - the workbench chunk (stores, engine, panels) and the editor chunks (Monaco), which load
 *   at once beside the locale: the JavaScript needed before the editors are interactive;
 * - the workers' chunks (sandbox, log import, Monaco's), which run off the page.
 * The rest of the build (other panels, dialogs, importers, exporters) loads on first use or when
 * the page is idle after the first paint.
 * Writes bench-results/bundle.md.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { fixed, table } from './measure'

const GOAL_GZIP_KB = 120

/** One chunk of Vite's build manifest (.vite/manifest.json). */
interface ManifestChunk {
  file: string
  isEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
}

const outDir = mkdtempSync(join(tmpdir(), 'toolstep-bundle-'))
try {
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--manifest', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'inherit' })
  const html = readFileSync(join(outDir, 'index.html'), 'utf8')
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>
  const entry = /<script[^>]+type="module"[^>]+src="\/?([^"]+)"/.exec(html)?.[1]
  if (!entry) throw new Error('index.html names no module script')
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/?([^"]+)"/g)].map((match) => match[1]!)
  const size = (file: string) => {
    const bytes = readFileSync(join(outDir, file))
    return { raw: bytes.length / 1024, gzip: gzipSync(bytes, { level: 9 }).length / 1024 }
  }
  const sum = (files: Iterable<string>) => [...files].map(size).reduce((total, file) => ({ raw: total.raw + file.raw, gzip: total.gzip + file.gzip }), { raw: 0, gzip: 0 })
  /** The files of manifest chunk `key` and of every chunk it imports statically, transitively. */
  const closure = (key: string, into = new Set<string>()): Set<string> => {
    const chunk = manifest[key]
    if (!chunk) throw new Error(`the build has no chunk for ${key}`)
    if (into.has(chunk.file)) return into
    into.add(chunk.file)
    for (const imported of chunk.imports ?? []) closure(imported, into)
    return into
  }
  const locales = Object.keys(manifest).filter((key) => /\/locales\/[\w-]+\.json$/.test(key))
  const firstLoad = new Set([entry, ...preloads])
  const english = closure('src/ui/i18n/locales/en.json')
  const firstPaint = new Set([...firstLoad, ...english])
  const workbench = [...closure('src/workbench.tsx')].filter((file) => !firstPaint.has(file))
  const editors = [...closure('src/ui/editors/CodeEditor.tsx')].filter((file) => !firstPaint.has(file) && !workbench.includes(file))
  const interactive = new Set([...firstPaint, ...workbench, ...editors])
  const workers = readdirSync(join(outDir, 'assets'))
    .filter((file) => /worker.*\.js$/.test(file))
    .map((file) => `assets/${file}`)
  const all = readdirSync(join(outDir, 'assets')).filter((file) => file.endsWith('.js')).map((file) => `assets/${file}`)
  const onUse = all.filter((file) => !interactive.has(file) && !workers.includes(file) && !locales.some((key) => manifest[key]!.file === file))

  const row = (label: string, file: string, goal = false) => {
    const { raw, gzip } = size(file)
    return [`${label} ${file}`, fixed(raw), fixed(gzip), goal ? `${fixed(gzip / GOAL_GZIP_KB)}×` : '']
  }
  const total = (label: string, files: Iterable<string>) => {
    const { raw, gzip } = sum(files)
    return [label, fixed(raw), fixed(gzip), '']
  }
  const rows = [
    row('entry', entry, true),
    ...preloads.map((file) => row('preloaded', file)),
    total('first load (entry + preloaded), total', firstLoad),
    ...locales.map((key) => row(`locale ${key.replace(/^.*\//, '')}`, manifest[key]!.file)),
    total('first paint: the page frame (first load + English locale), total', firstPaint),
    row('workbench', workbench[0]!),
    total(`workbench's shared chunks (${workbench.length - 1}: engine, parsers, schemas, examples…), total`, workbench.slice(1)),
    ...editors.map((file) => row('editors (Monaco)', file)),
    total('JS needed before the editors are interactive (first paint + workbench + editors), total', interactive),
    total(`loaded on first use or fetched when idle after the first paint (${onUse.length} chunks: panels, dialogs, importers, exporters, Monaco languages…), total`, onUse),
    ...workers.map((file) => row('worker', file)),
  ]
  const entrySize = size(entry)
  const tableText = table(['JavaScript', 'KB', 'KB gzip', `× goal (${GOAL_GZIP_KB} KB gzip)`], rows)
  const met = entrySize.gzip <= GOAL_GZIP_KB
  const header = `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench bundle\` (a production \`vite build\`, gzip level 9, each file compressed alone).`
  const summary = [
    `Entry chunk: ${fixed(entrySize.gzip)} KB gzip — goal ≤ ${GOAL_GZIP_KB} KB ${met ? 'met' : 'not met'}.`,
    'The entry paints the page frame (toolbar row, editors and run panes with loading states in the',
    "user's language) once its locale chunk is in. The workbench (stores, engine, visible panels)",
    'loads at once beside the locale and replaces the frame; the editors (Monaco) load when it shows',
    'them. So the first paint is the real layout, but its controls work once the workbench is in.',
  ].join('\n')
  console.log(`\n${header}\n\n${tableText}\n\n${summary}`)
  mkdirSync('bench-results', { recursive: true })
  writeFileSync('bench-results/bundle.md', `# First-load size\n\n${header}\n\n${tableText}\n\n${summary}\n`)
  console.log('\nwrote bench-results/bundle.md')
} finally {
  rmSync(outDir, { recursive: true, force: true })
}
