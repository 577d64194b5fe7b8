/**
 * Main-thread benchmark (issue 11 item 8): the production build in real Chromium, a mock model
 * that returns (a) one turn of 100 000 tool calls whose tool returns at once, (b) 10 MB of
 * text, (c) 1 MB of a parser's worst case (`{` repeated, read with `auto`), (d) one tool call
 * whose arguments are a wide value (500 000 small objects), and (e) a one-line answer, the baseline
 * of what a Run costs the page whatever the model emits. Long tasks of the
 * page's main thread (PerformanceObserver `longtask`, over 50 ms) are recorded while the run
 * goes, and while the result is inspected (the turn's parse, the Parse lab tab and back, the
 * stop); the goal is that none exceeds 100 ms. Writes bench-results/main-thread.md.
 *
 * `npm run bench main-thread -- --calls=20000` changes the size of (a); `--only=a,b` picks
 * scenarios; `--profile` builds without minifying and samples the main thread with the CPU
 * profiler, then names the functions that took most of each long task over 100 ms (samples put
 * on the page's clock from when the profiler started). Port: BENCH_PORT, else
 * E2E_PORT, else 4191. Run it under the shared lock: it builds and drives a browser.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type CDPSession, type Page } from '@playwright/test'
import { fixed, table } from './measure'

const flag = (name: string) => process.argv.find((argument) => argument.startsWith(`--${name}`))
const value = (name: string) => flag(name)?.split('=')[1]
const CALLS = Number(value('calls') ?? 100_000)
const ONLY = value('only')?.split(',') ?? ['a', 'b', 'c', 'd', 'e']
const PROFILE = flag('profile') !== undefined
const PORT = Number(process.env.BENCH_PORT ?? process.env.E2E_PORT ?? 4191)
const GOAL_MS = 100
/** The longest a scenario's run may take before it is reported as not finished. */
const RUN_TIMEOUT_MS = Number(value('timeout') ?? 900_000)

interface Scenario {
  key: string
  title: string
  protocol: string
  tools: string
  model: string
}

const echoTools = `import { tool, z } from 'toolstep'\nexport const echo = tool({ description: 'Echoes n.', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => String(n) })\n`
const scenarios: Scenario[] = [
  {
    key: 'a',
    title: `${CALLS.toLocaleString('en')} tool calls in one turn`,
    protocol: 'openai',
    tools: echoTools,
    model: `export default function model({ step }) {\n  if (step > 0) return { content: 'done' }\n  return { content: null, tool_calls: Array.from({ length: ${CALLS} }, (_, n) => ({ id: 'c' + n, type: 'function', function: { name: 'echo', arguments: '{"n":' + n + '}' } })) }\n}\n`,
  },
  {
    key: 'b',
    title: '10 MB of text',
    protocol: 'openai',
    tools: echoTools,
    model: `export default function model() {\n  return 'The answer, at length. '.repeat(440_000) + 'END'\n}\n`,
  },
  {
    key: 'c',
    title: "1 MB of a parser's worst case ('{' × 10^6, auto)",
    protocol: 'auto',
    tools: echoTools,
    model: `export default function model() {\n  return '{'.repeat(1_000_000)\n}\n`,
  },
  {
    key: 'd',
    // Keys in a schema's order, not sorted (as a model may write them): the repeated-call check's stable text differs.
    title: 'one tool call whose arguments are 500 000 small objects',
    protocol: 'openai',
    tools: `import { tool, z } from 'toolstep'\nexport const take = tool({ description: 'Take.', inputSchema: z.object({ a: z.any().optional(), text: z.string().optional() }), execute: ({ a }) => 'got ' + (Array.isArray(a) ? a.length : 0) })\n`,
    model: `export default function model({ step }) {\n  if (step > 0) return 'done'\n  return { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'take', arguments: JSON.stringify({ text: 'take these', a: Array.from({ length: 5e5 }, (_, i) => ({ k: i })) }) } }] }\n}\n`,
  },
  {
    key: 'e',
    title: 'a one-line answer (baseline: what a Run costs the page whatever the model emits)',
    protocol: 'openai',
    tools: echoTools,
    model: `export default function model() {\n  return 'The answer.'\n}\n`,
  },
].filter((scenario) => ONLY.includes(scenario.key))

interface LongTask {
  start: number
  duration: number
}

interface Stage {
  name: string
  tasks: LongTask[]
  wallMs: number
  busy?: BusySpan[]
}

interface BusySpan {
  ms: number
  top: string[]
}

async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  const until = Date.now() + 60_000
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`vite preview exited with ${child.exitCode}`)
    try {
      const response = await fetch(url)
      if (response.ok) return
    } catch (error) {
      // not up yet
      if (process.env.BENCH_DEBUG) console.error(error)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${url} did not answer within 60 s`)
}

/**
 * The functions of most self time in each long task over the goal. Sample times are put on the
 * page's clock from the profile's start, taken as the page time read just before the profiler
 * started (off by the few ms of a CDP round trip, a small part of a task over 100 ms).
 */
function taskSpans(profile: Profile, fromMs: number, tasks: readonly LongTask[]): BusySpan[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parentOf = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)
  const times: number[] = []
  let at = fromMs
  profile.samples.forEach((_id, index) => {
    at += (profile.timeDeltas[index] ?? 0) / 1000
    times.push(at)
  })
  return tasks
    .filter((task) => task.duration > GOAL_MS)
    .map((task) => {
      const self = new Map<string, number>()
      /** A sampled node of each label: its callers are printed for the task's top function. */
      const nodeOf = new Map<string, number>()
      profile.samples.forEach((id, index) => {
        const time = times[index]!
        if (time < task.start || time >= task.start + task.duration) return
        const node = byId.get(id)
        const name = node?.callFrame.functionName ?? '?'
        const where = node?.callFrame.url ? `${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber + 1}` : ''
        const label = `${name || '(anonymous)'}${where ? ` ${where}` : ''}`
        self.set(label, (self.get(label) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000)
        if (!nodeOf.has(label)) nodeOf.set(label, id)
      })
      const sorted = [...self.entries()].sort((x, y) => y[1] - x[1])
      const top = sorted.slice(0, 6).map(([name, ms]) => `${name} ${fixed(ms)} ms`)
      // Who called the top function (not a pseudo-node like "(garbage collector)"): nine callers up.
      const first = sorted.find(([name]) => !name.startsWith('('))
      const callers: string[] = []
      for (let id = first ? parentOf.get(nodeOf.get(first[0])!) : undefined; id !== undefined && callers.length < 9; id = parentOf.get(id)) {
        const node = byId.get(id)
        if (node) callers.push(`${node.callFrame.functionName || '(anonymous)'}:${node.callFrame.lineNumber + 1}`)
      }
      if (callers.length > 0) top.push(`[${first![0].split(' ')[0]} ← ${callers.join(' ← ')}]`)
      return { ms: task.duration, top }
    })
}

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[]
  samples: number[]
  timeDeltas: number[]
}

async function stage<T>(page: Page, cdp: CDPSession | null, name: string, action: () => Promise<T>): Promise<Stage> {
  const from = await page.evaluate(() => performance.now())
  if (cdp) await cdp.send('Profiler.start')
  await action()
  // Let a task the action started finish before the window closes.
  await page.waitForTimeout(300)
  const profile = cdp ? ((await cdp.send('Profiler.stop')) as { profile: Profile }).profile : null
  const to = await page.evaluate(() => performance.now())
  const tasks = await page.evaluate(([a, b]) => (window as unknown as { __longTasks: LongTask[] }).__longTasks.filter((t) => t.start >= a! && t.start < b!), [from, to])
  return { name, tasks, wallMs: to - from, ...(profile ? { busy: taskSpans(profile, from, tasks) } : {}) }
}

async function measure(page: Page, cdp: CDPSession | null, scenario: Scenario): Promise<Stage[]> {
  await page.goto(`http://127.0.0.1:${PORT}/`)
  await page.evaluate(() => localStorage.clear())
  await page.reload()
  await page.getByTestId('editor-model').locator('.monaco-editor').waitFor()
  await page.evaluate(
    ([tools, model]) => {
      const monaco = (window as unknown as { __monaco: { editor: { getModel(uri: unknown): { setValue(v: string): void } }; Uri: { parse(s: string): unknown } } }).__monaco
      monaco.editor.getModel(monaco.Uri.parse('file:///tools.ts')).setValue(tools!)
      monaco.editor.getModel(monaco.Uri.parse('file:///model.ts')).setValue(model!)
    },
    [scenario.tools, scenario.model],
  )
  await page.getByTestId('protocol-select').selectOption(scenario.protocol)
  // The edit is checked in the sandbox; let that settle so the run starts from a quiet page.
  await page.waitForTimeout(1500)
  const stages: Stage[] = []
  stages.push(
    await stage(page, cdp, 'run', async () => {
      await page.getByTestId('run').click()
      await page.getByTestId('stop-reason').waitFor({ timeout: RUN_TIMEOUT_MS })
    }),
  )
  stages.push(
    await stage(page, cdp, 'inspect', async () => {
      await page.getByTestId('timeline').press('Home')
      await page.locator('[data-testid="timeline-item"][data-phase="parse"]').first().click()
      await page.getByTestId('raw-output').waitFor()
      await page.getByTestId('view-parse').click()
      await page.getByTestId('view-loop').click()
      await page.getByTestId('raw-output').waitFor()
      await page.getByTestId('timeline').press('End')
    }),
  )
  return stages
}

const outDir = mkdtempSync(join(tmpdir(), 'toolstep-main-thread-'))
let server: ChildProcess | undefined
const results: { scenario: Scenario; stages: Stage[] | null; error?: string }[] = []
try {
  const build = ['node_modules/vite/bin/vite.js', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error', ...(PROFILE ? ['--minify', 'false'] : [])]
  execFileSync(process.execPath, build, { stdio: 'inherit' })
  server = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'preview', '--outDir', outDir, '--host', '127.0.0.1', '--port', String(PORT), '--strictPort'], { stdio: ['ignore', 'ignore', 'pipe'] })
  let serverErrors = ''
  server.stderr?.on('data', (chunk: Buffer) => (serverErrors += chunk.toString()))
  server.on('exit', (code) => code && console.error(serverErrors))
  await waitForServer(`http://127.0.0.1:${PORT}/`, server)
  const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined)
  const browser = await chromium.launch({
    headless: true,
    ...(executablePath ? { executablePath } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  })
  try {
    for (const scenario of scenarios) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
      // Offline: nothing but the app's own server.
      await context.route((url) => !url.href.startsWith(`http://127.0.0.1:${PORT}/`) && !/^(blob|data):/.test(url.href), (route) => route.abort())
      await context.addInitScript(() => {
        const tasks: { start: number; duration: number }[] = []
        ;(window as unknown as { __longTasks: typeof tasks }).__longTasks = tasks
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration })
        }).observe({ type: 'longtask', buffered: true })
      })
      const page = await context.newPage()
      let cdp: CDPSession | null = null
      if (PROFILE) {
        cdp = await context.newCDPSession(page)
        await cdp.send('Profiler.enable')
        await cdp.send('Profiler.setSamplingInterval', { interval: 1000 })
      }
      try {
        console.log(`${scenario.key}) ${scenario.title}…`)
        results.push({ scenario, stages: await measure(page, cdp, scenario) })
      } catch (error) {
        results.push({ scenario, stages: null, error: error instanceof Error ? error.message.split('\n')[0]! : String(error) })
      } finally {
        await context.close()
      }
    }
  } finally {
    await browser.close()
  }
} finally {
  // A static server with nothing to save; SIGTERM waits for open connections to close.
  server?.kill('SIGKILL')
  rmSync(outDir, { recursive: true, force: true })
}

const rows = results.flatMap(({ scenario, stages, error }) => {
  if (!stages) return [[`${scenario.key}) ${scenario.title}`, '—', '—', '—', '—', '—', `not finished: ${error ?? ''}`]]
  return stages.map((s) => {
    const longest = Math.max(0, ...s.tasks.map((t) => t.duration))
    const over = s.tasks.filter((t) => t.duration > GOAL_MS)
    return [
      `${scenario.key}) ${scenario.title}`,
      s.name,
      fixed(s.wallMs),
      String(s.tasks.length),
      String(over.length),
      fixed(longest),
      `${fixed(longest / GOAL_MS)}×`,
    ]
  })
})
const tableText = table(['Model output', 'stage', 'wall ms', 'long tasks (> 50 ms)', `over ${GOAL_MS} ms`, 'longest ms', `longest × goal`], rows)
const attribution = results
  .flatMap(({ scenario, stages }) =>
    (stages ?? []).flatMap((s) => (s.busy ?? []).map((span) => `- ${scenario.key}) ${s.name}: task of ${fixed(span.ms)} ms — ${span.top.join('; ')}`)),
  )
  .join('\n')
const header = `Node ${process.version}, Chromium (headless), ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench main-thread${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\` (a production \`vite build\`${PROFILE ? ', not minified, with the CPU profiler sampling' : ''}).`
const notes = [
  `"run": from the click on Run until the stop reason shows; "inspect": the turn's parse selected, the Parse lab tab and back, the end of the timeline. Goal: no task over ${GOAL_MS} ms; "longest × goal" ≤ 1× meets it.`,
  'Long tasks are the page\'s own (PerformanceObserver `longtask`); workers (the sandbox, the engine\'s phase worker) are not counted, they do not block the page.',
].join('\n')
const report = `${header}\n\n${tableText}\n\n${notes}${attribution ? `\n\nLong tasks over ${GOAL_MS} ms (CPU profile, self time in each):\n${attribution}` : ''}`
console.log(`\n${report}`)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/main-thread.md', `# Main thread\n\n${report}\n`)
console.log('\nwrote bench-results/main-thread.md')
