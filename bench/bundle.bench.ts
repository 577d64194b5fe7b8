/**
 * First-load size benchmark (issue 11 item 14): builds the app for production into a temporary
 * folder and reports the JavaScript the page loads before it can paint — the entry chunk named
 * in index.html and the chunks it preloads — raw and gzip-compressed, against the goal of at most
 * 120 KB gzip for the entry. The workers' chunks (sandbox, log import, Monaco) are listed beside
 * it: they load later or off the page. Writes bench-results/bundle.md.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { fixed, table } from './measure'

const GOAL_GZIP_KB = 120

const outDir = mkdtempSync(join(tmpdir(), 'toolstep-bundle-'))
try {
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'inherit' })
  const html = readFileSync(join(outDir, 'index.html'), 'utf8')
  const entry = /<script[^>]+type="module"[^>]+src="\/?([^"]+)"/.exec(html)?.[1]
  if (!entry) throw new Error('index.html names no module script')
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/?([^"]+)"/g)].map((match) => match[1]!)
  const size = (file: string) => {
    const bytes = readFileSync(join(outDir, file))
    return { raw: bytes.length / 1024, gzip: gzipSync(bytes, { level: 9 }).length / 1024 }
  }
  const firstLoad = [entry, ...preloads].map((file) => ({ file, ...size(file) }))
  const workers = readdirSync(join(outDir, 'assets'))
    .filter((file) => /worker.*\.js$/.test(file))
    .map((file) => ({ file: `assets/${file}`, ...size(`assets/${file}`) }))
  const entrySize = firstLoad[0]!
  const total = firstLoad.reduce((sum, file) => ({ raw: sum.raw + file.raw, gzip: sum.gzip + file.gzip }), { raw: 0, gzip: 0 })
  const rows = [
    ...firstLoad.map((file, index) => [index === 0 ? `entry ${file.file}` : `preloaded ${file.file}`, fixed(file.raw), fixed(file.gzip), index === 0 ? `${fixed(file.gzip / GOAL_GZIP_KB)}×` : '']),
    ['first load, total', fixed(total.raw), fixed(total.gzip), ''],
    ...workers.map((file) => [`worker ${file.file}`, fixed(file.raw), fixed(file.gzip), '']),
  ]
  const tableText = table(['JavaScript', 'KB', 'KB gzip', `× goal (${GOAL_GZIP_KB} KB gzip)`], rows)
  const met = entrySize.gzip <= GOAL_GZIP_KB
  const header = `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench bundle\` (a production \`vite build\`, gzip level 9).`
  const summary = `Entry chunk: ${fixed(entrySize.gzip)} KB gzip — goal ≤ ${GOAL_GZIP_KB} KB ${met ? 'met' : 'not met'}.`
  console.log(`\n${header}\n\n${tableText}\n\n${summary}`)
  mkdirSync('bench-results', { recursive: true })
  writeFileSync('bench-results/bundle.md', `# First-load size\n\n${header}\n\n${tableText}\n\n${summary}\n`)
  console.log('\nwrote bench-results/bundle.md')
} finally {
  rmSync(outDir, { recursive: true, force: true })
}
