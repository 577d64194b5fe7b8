/**
 * Derivation benchmark (issue 11 items 8 and 12): what the page derives from the event log on
 * every store update of a live run (one update per phase: a new array holding the same events
 * plus the phase's), at 1 000 and at 100 000 events. "Full" walks the whole log as the page once
 * did (the diagram's edge counts, the timeline's breakpoint marks, the request at the turn's
 * decide, the stop check); "incremental" gives the same answers from the page's incremental
 * derivations (createEdgeCounter, createBreakpointRows, createRequestCache, an append fold), fed each log in turn as the page is. Reports ms per update and the ratio of the cost
 * at 100 000 events to the cost at 1 000 (1× = flat per update). Writes bench-results/derive.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { breakpointRows, createBreakpointRows, type Breakpoint } from '../src/core/debug/index'
import { createAppendFold, createRequestCache, LoopRunner, requestAt, type ModelOutput, type SessionEvent } from '../src/core/loop/index'
import { createEdgeCounter, edgeCounts } from '../src/ui/diagram/loop-graph'
import { fixed, table } from './measure'

const CALLS_PER_TURN = 16
const TURNS = 5_000 // 20 events a turn: 100 000 events
const UPDATES = 40
const ROUNDS = 5
const SIZES = [1_000, 95_000] as const

const breakpoints: Breakpoint[] = [
  { id: 'b1', enabled: true, on: { kind: 'after', phase: 'execute' }, condition: '' },
  { id: 'b2', enabled: true, on: { kind: 'turn', turn: 3 }, condition: '' },
]

/** A long live run, and the log's length after each phase (where the store is updated). */
async function longRun(): Promise<{ events: SessionEvent[]; boundaries: number[] }> {
  let turn = 0
  let count = 0
  const output = (): ModelOutput =>
    turn++ < TURNS
      ? { kind: 'message', message: { content: null, tool_calls: Array.from({ length: CALLS_PER_TURN }, (_, i) => ({ id: `c${turn}_${i}`, type: 'function' as const, function: { name: 'echo', arguments: `{"n":${i}}` } })) } }
      : { kind: 'text', raw: 'done' }
  const runner = new LoopRunner({
    model: { respond: async () => output() },
    executor: { execute: async (call) => ({ ok: true, result: JSON.stringify(call.arguments), durationMs: 0 }) },
    clock: () => 0,
    onEvent: () => void count++,
  })
  runner.start({ protocol: 'openai', tools: [{ name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }], messages: [{ role: 'user', content: 'go' }], maxSteps: TURNS + 2 })
  const boundaries = [count]
  while (!runner.stopped) {
    await runner.step()
    boundaries.push(count)
  }
  return { events: runner.events, boundaries }
}

interface Derived {
  edges: number
  rows: number
  messages: number
  stopped: boolean
}

/** The index of the decide of the turn `cursor` is in (what the inspector's context tab shows). */
function decideOf(events: readonly SessionEvent[], cursor: number): number {
  let at = cursor
  while (at > 0 && events[at]!.type !== 'model.responded' && events[at]!.type !== 'model.failed') at -= 1
  return at
}

function full(events: readonly SessionEvent[]): Derived {
  const last = events.length - 1
  const rows = breakpointRows(breakpoints, events)
  return {
    edges: [...edgeCounts(events).counts.values()].reduce((a, b) => a + b, 0),
    rows: rows.has(last) ? 1 : 0,
    messages: requestAt(events, decideOf(events, last)).messages.length,
    stopped: events.some((e) => e.type === 'loop.stopped'),
  }
}

function incremental(): (events: readonly SessionEvent[]) => Derived {
  const count = createEdgeCounter()
  const rowsOf = createBreakpointRows()
  const requestOf = createRequestCache()
  const stopped = createAppendFold<SessionEvent, { stopped: boolean }, boolean>({ start: () => ({ stopped: false }), add: (acc, e) => void (acc.stopped ||= e.type === 'loop.stopped'), view: (acc) => acc.stopped })
  return (events) => {
    const last = events.length - 1
    return {
      edges: [...count(events).counts.values()].reduce((a, b) => a + b, 0),
      rows: rowsOf(breakpoints, events).has(last) ? 1 : 0,
      messages: requestOf(events, decideOf(events, last)).messages.length,
      stopped: stopped(events),
    }
  }
}

const { events, boundaries } = await longRun()
console.log(`${events.length.toLocaleString('en')} events in ${TURNS.toLocaleString('en')} turns`)

interface Row {
  size: number
  fullMs: number
  incrementalMs: number
}
const rows: Row[] = []
for (const size of SIZES) {
  const first = boundaries.findIndex((b) => b >= size)
  const logs = boundaries.slice(first, first + UPDATES + 1).map((b) => events.slice(0, b))
  let fullMs = Number.POSITIVE_INFINITY
  let incrementalMs = Number.POSITIVE_INFINITY
  for (let round = 0; round < ROUNDS; round++) {
    let started = performance.now()
    const answers = logs.slice(1).map(full)
    fullMs = Math.min(fullMs, (performance.now() - started) / UPDATES)
    const derive = incremental()
    derive(logs[0]!)
    started = performance.now()
    const same = logs.slice(1).map(derive)
    incrementalMs = Math.min(incrementalMs, (performance.now() - started) / UPDATES)
    if (JSON.stringify(same) !== JSON.stringify(answers)) throw new Error(`the incremental derivations differ from the full ones at ${size} events`)
  }
  rows.push({ size, fullMs, incrementalMs })
}

const base = rows[0]!
const tableText = table(
  ['Events in the log', 'full ms per update', 'incremental ms per update', 'full × at 1 000', 'incremental × at 1 000', 'incremental × full'],
  rows.map((row) => [
    row.size.toLocaleString('en'),
    fixed(row.fullMs),
    fixed(row.incrementalMs),
    `${fixed(row.fullMs / base.fullMs)}×`,
    `${fixed(row.incrementalMs / base.incrementalMs)}×`,
    `${fixed(row.incrementalMs / row.fullMs)}×`,
  ]),
)
const cpu = cpus()[0]?.model ?? 'unknown CPU'
const header = `Node ${process.version}, ${cpu} (${cpus().length} cores), ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench derive\`.`
const notes = [
  `A live run of ${TURNS.toLocaleString('en')} turns of ${CALLS_PER_TURN} calls; the mean of ${UPDATES} consecutive updates (one per phase) from the given size on, best of ${ROUNDS} rounds. Both give the same answers (checked).`,
  '"× at 1 000" divides the cost per update by the one at 1 000 events: about 1× means an update costs the same however long the run already is.',
  "Not included (the same in both): the store's copy of the log per phase, a memcpy of its pointers.",
].join('\n')
console.log(`\n${header}\n\n${tableText}\n\n${notes}`)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/derive.md', `# Derivations per store update\n\n${header}\n\n${tableText}\n\n${notes}\n`)
console.log('\nwrote bench-results/derive.md')
