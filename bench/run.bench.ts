/**
 * Long-run benchmark (issue 11 item 12): a run of 10 000 steps (one tool call each, then a final
 * answer) through the engine alone (in-process model and tool), the Node worker sandbox, and the
 * CLI's process sandbox (`toolstep run`). model.ts and tools.ts do next to nothing, so the times
 * are the engine's and the sandbox's own. Reports the mean ms per phase over the first and the
 * last 1 000 steps and their ratio (1× = every step costs the same however long the conversation
 * is), side by side with the engine alone. Writes bench-results/run.md.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { LoopRunner, type Model, type ToolExecutor, type ToolRouter } from '../src/core/loop/index'
import type { ToolSpec } from '../src/core/tools/types'
import { createProcessSandbox } from '../src/sandbox/node-process-sandbox'
import { createNodeSandbox } from '../src/sandbox/node-sandbox'
import type { Sandbox } from '../src/sandbox/sandbox-host'
import { fixed, table } from './measure'

const STEPS = Number(process.env.BENCH_RUN_STEPS ?? 10_000)
const WINDOW = Math.min(1_000, Math.floor(STEPS / 4))
/** The goal of issue 11 item 12, ms per phase through the Node sandbox. */
const GOAL_MS_PER_PHASE = 0.2

const TOOLS = `import { tool, z } from 'toolstep'
export const echo = tool({ description: 'Echoes n.', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => String(n) })`
const MODEL = `export default function model({ step }) {
  if (step >= ${STEPS}) return 'done'
  return { content: null, tool_calls: [{ id: 'c' + step, type: 'function', function: { name: 'echo', arguments: '{"n":' + step + '}' } }] }
}`
const echo: ToolSpec = { name: 'echo', description: 'Echoes n.', inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }

/** Measured runs per configuration after one warm-up run; each window keeps its best run. */
const ROUNDS = Number(process.env.BENCH_RUN_ROUNDS ?? 3)

/** Clock ticks per second of /proc/<pid>/stat (`getconf CLK_TCK`, 100 on Linux). */
const TICKS_PER_S = 100

/** CPU time of the processes started by `pid` and theirs, ms, from /proc (0 where there is none). */
function descendantsCpuMs(pid: number): number {
  let total = 0
  let tasks: string[] = []
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return 0
  }
  for (const task of tasks) {
    let children: string[] = []
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)
    } catch {
      continue
    }
    for (const child of children) {
      try {
        // Fields after the command name: utime and stime are the 12th and 13th.
        const stat = readFileSync(`/proc/${child}/stat`, 'utf8')
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        total += ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S + descendantsCpuMs(Number(child))
      } catch {
        // The child ended meanwhile.
      }
    }
  }
  return total
}

/**
 * CPU time of this process (all its threads, so the worker sandbox too) and of its child
 * processes (the CLI sandbox), ms. Unlike wall time it does not count the time spent waiting
 * for a core while other processes run, so it stays readable on a loaded machine.
 */
function cpuMs(): number {
  const own = process.cpuUsage()
  return (own.user + own.system) / 1000 + descendantsCpuMs(process.pid)
}

interface Measured {
  label: string
  firstMs: number
  lastMs: number
  /** CPU ms per phase over the first and last WINDOW steps (this process and its children). */
  firstCpuMs: number
  lastCpuMs: number
  /** Wall time of the fastest whole run, s. */
  totalS: number
  phases: number
}

interface Run {
  firstMs: number
  lastMs: number
  firstCpuMs: number
  lastCpuMs: number
  totalS: number
  phases: number
}

type Parts = { model: Model; executor: ToolExecutor; router?: ToolRouter; tools: ToolSpec[] }

/** Runs STEPS steps and returns the mean ms per phase over the first and last WINDOW steps. */
async function runOnce(label: string, parts: Parts): Promise<Run> {
  /** Time and event count at each decide. */
  const decides: { at: number; cpu: number; events: number }[] = []
  let events = 0
  const marked = new Set([0, WINDOW, STEPS - WINDOW, STEPS])
  const runner = new LoopRunner({
    ...parts,
    onEvent: (event) => {
      events += 1
      if (event.type === 'model.responded') decides.push({ at: performance.now(), cpu: marked.has(decides.length) ? cpuMs() : 0, events })
    },
  })
  runner.start({ protocol: 'openai', tools: parts.tools, messages: [{ role: 'system', content: 'You call echo.' }, { role: 'user', content: 'go' }], maxSteps: STEPS + 1 })
  const started = performance.now()
  await runner.run()
  const totalS = (performance.now() - started) / 1000
  if (runner.state.stop?.reason !== 'final_answer' || decides.length !== STEPS + 1) throw new Error(`${label}: the run stopped with ${runner.state.stop?.reason} after ${decides.length} decides`)
  const perPhase = (from: number, to: number, key: 'at' | 'cpu') => (decides[to]![key] - decides[from]![key]) / (decides[to]!.events - decides[from]!.events)
  return {
    firstMs: perPhase(0, WINDOW, 'at'),
    lastMs: perPhase(STEPS - WINDOW, STEPS, 'at'),
    firstCpuMs: perPhase(0, WINDOW, 'cpu'),
    lastCpuMs: perPhase(STEPS - WINDOW, STEPS, 'cpu'),
    totalS,
    phases: decides[1]!.events - decides[0]!.events,
  }
}

/**
 * A warm-up run, then ROUNDS measured runs; each figure is the best of the rounds, so a burst of
 * load from other processes on a shared machine is discarded rather than read as growth.
 */
async function measure(label: string, parts: Parts): Promise<Measured> {
  await runOnce(label, parts)
  const runs: Run[] = []
  for (let round = 0; round < ROUNDS; round++) runs.push(await runOnce(label, parts))
  const best = (key: 'firstMs' | 'lastMs' | 'firstCpuMs' | 'lastCpuMs' | 'totalS') => Math.min(...runs.map((run) => run[key]))
  console.log(`${label}: ${runs.map((run) => `${fixed(run.totalS)} s`).join(', ')}`)
  return {
    label,
    firstMs: best('firstMs'),
    lastMs: best('lastMs'),
    firstCpuMs: best('firstCpuMs'),
    lastCpuMs: best('lastCpuMs'),
    totalS: best('totalS'),
    phases: runs[0]!.phases,
  }
}

async function throughSandbox(label: string, sandbox: Sandbox): Promise<Measured> {
  try {
    const loaded = await sandbox.load({ tools: TOOLS, model: MODEL })
    if (!loaded.ok) throw new Error(loaded.error.message)
    return await measure(label, { model: sandbox, executor: sandbox, router: sandbox, tools: loaded.tools })
  } finally {
    sandbox.dispose()
  }
}

const inProcess: Model = {
  respond: async ({ step }) =>
    step >= STEPS ? { kind: 'text', raw: 'done' } : { kind: 'message', message: { content: null, tool_calls: [{ id: `c${step}`, type: 'function', function: { name: 'echo', arguments: `{"n":${step}}` } }] } },
}
const inProcessTool: ToolExecutor = { execute: async (call) => ({ ok: true, result: String(call.arguments.n), durationMs: 0 }) }

const results = [
  await measure('engine alone (in-process model and tool)', { model: inProcess, executor: inProcessTool, tools: [echo] }),
  await throughSandbox('Node worker sandbox (worker_threads)', createNodeSandbox()),
  await throughSandbox('CLI sandbox (child process, toolstep run)', createProcessSandbox()),
]
const engine = results[0]!

const tableText = table(
  [
    `Run of ${STEPS.toLocaleString('en')} steps`,
    `ms/phase, first ${WINDOW.toLocaleString('en')}`,
    `ms/phase, last ${WINDOW.toLocaleString('en')}`,
    'last ÷ first',
    'CPU ms/phase, first',
    'CPU ms/phase, last',
    'CPU last ÷ first',
    'last ÷ engine alone',
    'total s',
    `≤ ${GOAL_MS_PER_PHASE} ms/phase`,
  ],
  results.map((row) => [
    row.label,
    fixed(row.firstMs),
    fixed(row.lastMs),
    `${fixed(row.lastMs / row.firstMs)}×`,
    fixed(row.firstCpuMs),
    fixed(row.lastCpuMs),
    `${fixed(row.lastCpuMs / row.firstCpuMs)}×`,
    `${fixed(row.lastMs / engine.lastMs)}×`,
    fixed(row.totalS),
    row === engine ? '' : Math.max(row.firstMs, row.lastMs) <= GOAL_MS_PER_PHASE ? 'yes' : 'no',
  ]),
)
const cpu = cpus()[0]?.model ?? 'unknown CPU'
const header = `Node ${process.version}, ${cpu} (${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}), ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench run\` (\`BENCH_RUN_STEPS\` changes the length).`
const notes = [
  `Each configuration runs once to warm up (the JIT, here and in the sandbox), then ${ROUNDS} times; each figure is the best of those runs.`,
  `A step is ${engine.phases} phases (decide, parse, validate, execute, backfill); "ms/phase" is the wall time of the steps divided by the phases they logged, including the round trips to the sandbox.`,
  '"CPU" counts the CPU time of this process and its children (the sandbox process), which a loaded machine does not inflate the way it inflates wall time; /proc is read for the children, so it is this process alone off Linux.',
  'At the last steps the conversation holds about 20 000 messages: "last ÷ first" near 1× (or below, once the JIT has warmed up) means a step costs the same however long the run already is.',
  'The sandbox keeps the conversation on its side: each request sends only the messages added since the previous one (see src/sandbox/request-wire.ts), and model.ts reads them in place, copied only if it changes its array (src/sandbox/messages-view.ts).',
].join('\n')

console.log(`\n${header}\n\n${tableText}\n\n${notes}`)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/run.md', `# Long-run benchmark\n\n${header}\n\n${tableText}\n\n${notes}\n`)
console.log('\nwrote bench-results/run.md')
