/**
 * Sandbox benchmark: what running user code in the browser's QuickJS VM costs against the V8
 * runtime it replaced there (the one the Node sandbox still runs). Both run the same runtime
 * in this process, without a worker, so only the engine differs:
 * - a typical tool call: zod-validated arguments, an async `execute` returning an object, the
 *   result serialised (`executeTool`), as the cost per call and the ratio QuickJS / V8;
 * - a typical model call (`callModel` with a short conversation);
 * - starting a sandbox: a fresh runtime and loading a typical tools.ts (in the browser each
 *   check on edit and each run does this once).
 * Then the whole path of a tool call, host ↔ worker messages included: the browser's (the QuickJS
 * VM in a worker, served by the same worker code as in the browser; see `vm-sandbox.worker.ts`)
 * against the Node sandbox's, per call for calls one after another, and for one turn of 1 000
 * and of 100 000 parallel calls, as ratios browser / Node.
 * Best of several rounds each, so load from other processes is discarded. Writes bench-results/sandbox.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { MessageChannel, Worker } from 'node:worker_threads'
import { newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { buildVmRuntime } from '../scripts/vm-bundle'
import { createRuntime, type SandboxRuntime } from '../src/sandbox/runtime'
import { createQuickJsRuntime } from '../src/sandbox/vm/quickjs-runtime'
import { createNodeSandbox } from '../src/sandbox/node-sandbox'
import { createSandboxHost, type Sandbox, type SpawnWorker } from '../src/sandbox/sandbox-host'
import { CONNECT_MESSAGE } from '../src/sandbox/worker-channel'
import { fixed, table } from './measure'

const TOOLS = `import { tool, z } from 'toolstep'
export const get_weather = tool({
  description: 'Current weather for a city.',
  inputSchema: z.object({ city: z.string().min(1), unit: z.enum(['c', 'f']).default('c'), days: z.number().int().min(1).max(7).optional() }),
  execute: async ({ city, unit, days }) => ({ city, unit, days: days ?? 1, temperature: 21, conditions: 'sunny', wind: { speed: 12, direction: 'NW' } }),
})
`
const MODEL = `import { callTools, lastToolResult, type ModelContext } from 'toolstep'
export default function model({ messages, protocol, step }: ModelContext) {
  if (step === 0) return callTools(protocol, [{ name: 'get_weather', arguments: { city: 'Paris' } }])
  return 'It is ' + String(lastToolResult(messages)?.content).slice(0, 20)
}
`
const ROUNDS = 7
const CALLS = 200

/** Best mean ms per call of `run` over `ROUNDS` rounds of `count` sequential calls. */
async function best(count: number, run: () => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < Math.min(count, 20); i++) await run()
  let bestMs = Number.POSITIVE_INFINITY
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now()
    for (let i = 0; i < count; i++) await run()
    bestMs = Math.min(bestMs, (performance.now() - started) / count)
  }
  return bestMs
}

const { code: runtimeSource } = await buildVmRuntime()
const wasm = await newQuickJSWASMModuleFromVariant(variant)
const engines: { name: string; make: () => SandboxRuntime & { dispose?: () => void } }[] = [
  { name: 'V8 (before)', make: () => createRuntime() },
  { name: 'QuickJS VM', make: () => createQuickJsRuntime(wasm, runtimeSource) },
]

const request = { messages: [{ role: 'system' as const, content: 'You are helpful.' }, { role: 'user' as const, content: 'Weather in Paris?' }], tools: [], step: 0, protocol: 'openai' }
const results: { name: string; tool: number; model: number; start: number }[] = []
for (const engine of engines) {
  const runtime = engine.make()
  runtime.load('tools.ts', TOOLS)
  runtime.load('model.ts', MODEL)
  const check = await runtime.executeTool('get_weather', { city: 'Paris' }, 'call_1')
  if (!check.ok) throw new Error(`${engine.name}: the tool failed: ${check.error.message}`)
  const tool = await best(CALLS, () => runtime.executeTool('get_weather', { city: 'Paris', days: 3 }, 'call_1'))
  const model = await best(CALLS, () => runtime.callModel(request))
  runtime.dispose?.()
  const start = await best(5, () => {
    const fresh = engine.make()
    fresh.load('tools.ts', TOOLS)
    fresh.dispose?.()
  })
  results.push({ name: engine.name, tool, model, start })
}

const [before, after] = results as [(typeof results)[number], (typeof results)[number]]
const rows = results.map((entry) => [entry.name, fixed(entry.tool), fixed(entry.model), fixed(entry.start)])
rows.push(['ratio QuickJS / V8', `${fixed(after.tool / before.tool)}×`, `${fixed(after.model / before.model)}×`, `${fixed(after.start / before.start)}×`])
const report = [
  '# Sandbox: QuickJS VM (browser) vs V8 runtime (before)',
  '',
  `${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; best of ${ROUNDS} rounds. Times in ms.`,
  '',
  table(['engine', 'tool call', 'model call', 'start + load tools.ts'], rows),
  '',
  'A tool call and a model call are what each execute and decide phase costs in the sandbox itself;',
  'the worker round trip (postMessage) comes on top for both engines alike.',
  '',
].join('\n')
// ---- the whole path: host, messages, worker, engine ----

const ECHO = `import { tool, z } from 'toolstep'
export const echo = tool({ description: 'Echoes n.', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => String(n) })
`
const tsxApi = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href
const vmWorker = new URL('./vm-sandbox.worker.ts', import.meta.url).href

/** The browser sandbox's host and worker code, with the worker in a Node thread instead of a Web Worker. */
function createVmSandbox(): Sandbox {
  const spawn: SpawnWorker = (events) => {
    const worker = new Worker(`import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(vmWorker)}) })`, {
      eval: true,
      workerData: { runtimeSource },
    })
    const channel = new MessageChannel()
    channel.port1.on('message', (data: { type?: string; reason?: string; outOfMemory?: boolean }) => {
      if (data.type === 'crashed') events.error(data.reason ?? 'crashed', true, { outOfMemory: data.outOfMemory === true })
      else events.message(data)
    })
    worker.postMessage({ type: CONNECT_MESSAGE, port: channel.port2 }, [channel.port2])
    worker.on('error', (error) => events.error(String(error), true))
    return {
      post: (message) => channel.port1.postMessage(message),
      terminate: () => {
        channel.port1.close()
        void worker.terminate()
      },
    }
  }
  return createSandboxHost(spawn)
}

/** Mean ms per call of a turn of `count` parallel calls, best of `rounds`; throws when a call fails. */
async function turn(sandbox: Sandbox, spec: Parameters<Sandbox['execute']>[1], count: number, rounds: number): Promise<number> {
  let bestMs = Number.POSITIVE_INFINITY
  for (let round = 0; round < rounds; round++) {
    const started = performance.now()
    const outcomes = await Promise.all(Array.from({ length: count }, (_, n) => sandbox.execute({ id: `c${n}`, name: 'echo', arguments: { n } }, spec)))
    bestMs = Math.min(bestMs, (performance.now() - started) / count)
    const failed = outcomes.find((outcome) => !outcome.ok)
    if (failed && !failed.ok) throw new Error(`a call of the ${count}-call turn failed: ${failed.error}`)
  }
  return bestMs
}

const paths: { name: string; make: () => Sandbox }[] = [
  { name: 'Node sandbox (V8, worker thread)', make: () => createNodeSandbox() },
  { name: 'browser sandbox (QuickJS VM, worker)', make: createVmSandbox },
]
const whole: { name: string; start: number; sequential: number; turn1k: number; turn100k: number }[] = []
for (const path of paths) {
  let start = Number.POSITIVE_INFINITY
  for (let round = 0; round < 3; round++) {
    const sandbox = path.make()
    const started = performance.now()
    const loaded = await sandbox.load({ tools: ECHO })
    start = Math.min(start, performance.now() - started)
    sandbox.dispose()
    if (!loaded.ok) throw new Error(`${path.name}: tools.ts failed to load: ${loaded.error.message}`)
  }
  const sandbox = path.make()
  const loaded = await sandbox.load({ tools: ECHO })
  const spec = loaded.tools[0]
  if (!spec) throw new Error(`${path.name}: no tool loaded`)
  const sequential = await best(CALLS, async () => {
    const outcome = await sandbox.execute({ id: 'c1', name: 'echo', arguments: { n: 1 } }, spec)
    if (!outcome.ok) throw new Error(`${path.name}: ${outcome.error}`)
  })
  const turn1k = await turn(sandbox, spec, 1_000, 5)
  const turn100k = await turn(sandbox, spec, 100_000, 2)
  sandbox.dispose()
  whole.push({ name: path.name, start, sequential, turn1k, turn100k })
}
const [node, browser] = whole as [(typeof whole)[number], (typeof whole)[number]]
const wholeRows = whole.map((entry) => [entry.name, fixed(entry.start), fixed(entry.sequential), fixed(entry.turn1k * 1000), fixed(entry.turn100k * 1000), fixed((entry.turn100k * 100_000) / 1000)])
wholeRows.push([
  'ratio browser / Node',
  `${fixed(browser.start / node.start)}×`,
  `${fixed(browser.sequential / node.sequential)}×`,
  `${fixed(browser.turn1k / node.turn1k)}×`,
  `${fixed(browser.turn100k / node.turn100k)}×`,
  `${fixed(browser.turn100k / node.turn100k)}×`,
])
const wholeReport = [
  '## The whole path of a tool call: host ↔ worker messages, batches, the engine',
  '',
  'A trivial tool (zod-checked `{ n }`, returns a string). The browser sandbox runs here with its',
  'worker in a Node thread (Chromium\'s MessagePort aside, the same code as in the browser).',
  '',
  table(['sandbox', 'start + load, ms', 'one call, ms', 'turn of 1 000, µs/call', 'turn of 100 000, µs/call', '100 000-call turn, s'], wholeRows),
  '',
].join('\n')
const full = `${report}\n${wholeReport}`
console.log(report)
console.log(wholeReport)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/sandbox.md', full)
