/**
 * Loop benchmark (issue 11 item 8): one model turn of 1 000, 10 000 and 100 000 parallel tool
 * calls through the engine's parse, validate, execute and backfill phases (in-process model and
 * tools, so only the engine is measured). Reports the time of each phase, the cost per call as a
 * ratio to the 1 000-call turn (1× = linear), and the parse as a ratio to plain `JSON.parse` of the
 * same output. Writes bench-results/loop.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { LoopRunner, type ModelOutput, type SessionEvent, type ToolExecutor } from '../src/core/loop/index'
import type { ToolSpec } from '../src/core/tools/types'
import { fixed, table } from './measure'

const SIZES = [1_000, 10_000, 100_000] as const
const ROUNDS = 3
const PHASES = ['parse', 'validate', 'execute', 'backfill'] as const
type PhaseName = (typeof PHASES)[number]

const echo: ToolSpec = { name: 'echo', description: 'Echoes its input.', inputSchema: { type: 'object', properties: { n: { type: 'integer' }, city: { type: 'string' } }, required: ['n'] } }
const executor: ToolExecutor = { execute: async (call) => ({ ok: true, result: JSON.stringify(call.arguments), durationMs: 0 }) }

function output(calls: number): ModelOutput {
  return {
    kind: 'message',
    message: { content: null, tool_calls: Array.from({ length: calls }, (_, i) => ({ id: `call_${i}`, type: 'function' as const, function: { name: 'echo', arguments: JSON.stringify({ n: i, city: `City ${i % 97}` }) } })) },
  }
}

/** Milliseconds spent in each phase of the turn: from the event that ends the previous phase to the one that ends this one. */
async function turn(calls: number): Promise<Record<PhaseName, number> & { raw: string }> {
  const reply = output(calls)
  let answered = false
  const marks: { type: SessionEvent['type']; at: number }[] = []
  const runner = new LoopRunner({
    model: { respond: async () => (answered ? { kind: 'text', raw: 'done' } : ((answered = true), reply)) },
    executor,
    clock: () => performance.now(),
    onEvent: (event) => marks.push({ type: event.type, at: performance.now() }),
  })
  runner.start({ protocol: 'openai', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: 2 })
  const events = await runner.run()
  const first = (type: SessionEvent['type']) => marks.findIndex((mark) => mark.type === type)
  const at = (index: number) => marks[index]!.at
  const responded = first('model.responded')
  const parsed = first('parse.completed')
  const validated = first('validate.completed')
  const backfilled = first('backfill.completed')
  const raw = events[responded]
  if (raw?.type !== 'model.responded' || backfilled < 0) throw new Error('the turn did not complete')
  const backfill = events[backfilled]
  if (backfill?.type !== 'backfill.completed' || backfill.messages.length !== calls + 1) throw new Error('the backfill lost calls')
  return {
    raw: raw.raw,
    parse: at(parsed) - at(responded),
    validate: at(validated) - at(parsed),
    execute: at(backfilled - 1) - at(validated),
    backfill: at(backfilled) - at(backfilled - 1),
  }
}

interface Row {
  calls: number
  phases: Record<PhaseName, number>
  jsonParseMs: number
}

const rows: Row[] = []
for (const calls of SIZES) {
  let best: Row | undefined
  let jsonParseMs = Number.POSITIVE_INFINITY
  for (let round = 0; round < ROUNDS; round++) {
    const measured = await turn(calls)
    const started = performance.now()
    JSON.parse(measured.raw)
    jsonParseMs = Math.min(jsonParseMs, performance.now() - started)
    const total = PHASES.reduce((sum, phase) => sum + measured[phase], 0)
    const bestTotal = best ? PHASES.reduce((sum, phase) => sum + best!.phases[phase], 0) : Number.POSITIVE_INFINITY
    if (total < bestTotal) best = { calls, phases: { parse: measured.parse, validate: measured.validate, execute: measured.execute, backfill: measured.backfill }, jsonParseMs }
  }
  rows.push({ ...best!, jsonParseMs })
  console.log(`${calls.toLocaleString('en')} calls done`)
}

const perCall = (row: Row, phase?: PhaseName) => (phase ? row.phases[phase] : PHASES.reduce((sum, p) => sum + row.phases[p], 0)) / row.calls
const base = rows[0]!
const tableText = table(
  ['Calls in the turn', ...PHASES.map((phase) => `${phase} ms`), 'µs per call', '× per call at 1 000', 'parse × JSON.parse'],
  rows.map((row) => [
    row.calls.toLocaleString('en'),
    ...PHASES.map((phase) => fixed(row.phases[phase])),
    fixed(perCall(row) * 1000),
    `${fixed(perCall(row) / perCall(base))}×`,
    `${fixed(row.phases.parse / row.jsonParseMs)}×`,
  ]),
)
const cpu = cpus()[0]?.model ?? 'unknown CPU'
const header = `Node ${process.version}, ${cpu} (${cpus().length} cores), ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench loop\`.`
const notes = [
  `Best of ${ROUNDS} runs. Model and tools are in-process and instant, so the times are the engine's own: the runner, the phase builders and the fold.`,
  'The backfill builder runs when the last tool.finished is committed (the runner decides once per phase), so its time is inside "execute"; "backfill" is appending the event.',
  '"× per call at 1 000" divides the cost per call by the 1 000-call turn\'s: about 1× at every size means the turn is linear in its number of calls.',
  '"parse × JSON.parse" compares the parse phase (the openai protocol with spans, ids, the event) with plain `JSON.parse` of the same output text.',
].join('\n')

console.log(`\n${header}\n\n${tableText}\n\n${notes}`)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/loop.md', `# Loop benchmark\n\n${header}\n\n${tableText}\n\n${notes}\n`)
console.log('\nwrote bench-results/loop.md')
