/**
 * Sandbox benchmark: what running user code in the browser's QuickJS VM costs against the V8
 * runtime it replaced there (the one the Node sandbox still runs). Both run the same runtime
 * in this process, without a worker, so only the engine differs:
 * - a typical tool call: zod-validated arguments, an async `execute` returning an object, the
 *   result serialised (`executeTool`), as the cost per call and the ratio QuickJS / V8;
 * - a typical model call (`callModel` with a short conversation);
 * - starting a sandbox: a fresh runtime and loading a typical tools.ts (in the browser each
 *   check on edit and each run does this once).
 * Best of several rounds each, so load from other processes is discarded. Writes bench-results/sandbox.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { buildVmRuntime } from '../scripts/vm-bundle'
import { createRuntime, type SandboxRuntime } from '../src/sandbox/runtime'
import { createQuickJsRuntime } from '../src/sandbox/vm/quickjs-runtime'
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
console.log(report)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/sandbox.md', report)
