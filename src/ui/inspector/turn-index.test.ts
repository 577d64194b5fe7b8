import { describe, expect, it } from 'vitest'
import { LoopRunner, type ModelOutput, type SessionEvent, type ToolExecutor } from '../../core/loop'
import type { ToolSpec } from '../../core/tools'
import { countedReads } from '../../test/counted-reads'
import { createTurnIndex, type TurnView } from './turn-index'

const echo: ToolSpec = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }
const executor: ToolExecutor = { execute: async (call) => ({ ok: true, result: JSON.stringify(call.arguments), durationMs: 0 }) }

/** A live run's logs as the store sees them: one new array after every phase. Every third call has arguments that fail validation. */
async function growingLogs(turns: number, calls: number): Promise<SessionEvent[][]> {
  let turn = 0
  const output = (): ModelOutput =>
    turn++ < turns
      ? { kind: 'message', message: { content: null, tool_calls: Array.from({ length: calls }, (_, i) => ({ id: `c${turn}_${i}`, type: 'function' as const, function: { name: 'echo', arguments: i % 3 === 0 ? '{"n":"x"}' : `{"n":${i}}` } })) } }
      : { kind: 'text', raw: 'done' }
  const runner = new LoopRunner({ model: { respond: async () => output() }, executor, clock: () => 0 })
  runner.start({ protocol: 'openai', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: turns + 2 })
  const logs = [runner.events]
  while (!runner.stopped) {
    await runner.step()
    logs.push(runner.events)
  }
  return logs
}

type Ev<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>

/** The turn at `cursor` the way the inspector used to read it: slice the turn out, then search it. */
function sliced(events: readonly SessionEvent[], cursor: number): TurnView {
  let start = cursor
  while (start > 0 && events[start]!.type !== 'model.responded' && events[start]!.type !== 'model.failed' && events[start]!.type !== 'session.started') start -= 1
  const turn = events.slice(start, cursor + 1)
  const find = <T extends SessionEvent['type']>(type: T) => turn.find((e): e is Ev<T> => e.type === type)
  const view: TurnView = {
    start,
    finished: turn.filter((e): e is Ev<'tool.finished'> => e.type === 'tool.finished'),
    edits: turn.filter((e): e is Ev<'edit.applied'> => e.type === 'edit.applied'),
    flagged: turn.filter((e) => (e.warnings?.length ?? 0) > 0 || (e.anomalies?.length ?? 0) > 0),
  }
  const singles = {
    started: find('session.started'),
    responded: find('model.responded'),
    failed: find('model.failed'),
    parsed: find('parse.completed'),
    validated: find('validate.completed'),
    confirmRequested: find('confirm.requested'),
    confirmDecided: find('confirm.decided'),
    backfilled: find('backfill.completed'),
    stopped: find('loop.stopped'),
  }
  for (const [key, event] of Object.entries(singles)) if (event) Object.assign(view, { [key]: event })
  return view
}

describe('createTurnIndex', () => {
  it('reads the same turn as slicing the log, at every cursor of every update of a live run', async () => {
    const logs = await growingLogs(3, 12)
    const turnsOf = createTurnIndex()
    for (const log of logs) {
      const index = turnsOf(log)
      for (let cursor = 0; cursor < log.length; cursor++) expect(index.turnAt(cursor)).toEqual(sliced(log, cursor))
    }
  })

  it('reads each event of a growing log once, however many updates it takes', async () => {
    const logs = await growingLogs(4, 400)
    const full = logs.at(-1)!
    const turnsOf = createTurnIndex()
    const reads = { count: 0 }
    for (const log of logs) turnsOf(countedReads(log, reads)).turnAt(log.length - 1)
    // Each event once, plus the four identity reads of each update (first and last, of the old log and the new); slicing read the turn (400+ events) on every update.
    expect(reads.count).toBeLessThanOrEqual(full.length + 4 * logs.length)
    expect(full.length).toBeGreaterThan(1600)
  })

  it('starts again for a log that does not extend the last one (Reset, an import, a fork)', async () => {
    const full = (await growingLogs(2, 5)).at(-1)!
    const turnsOf = createTurnIndex()
    turnsOf(full)
    const fork = [...full.slice(0, 9), { ...full[9]! }]
    const index = turnsOf(fork)
    for (let cursor = 0; cursor < fork.length; cursor++) expect(index.turnAt(cursor)).toEqual(sliced(fork, cursor))
    // A view made earlier still reads the log it was made from.
    expect(turnsOf(full).turnAt(full.length - 1)).toEqual(sliced(full, full.length - 1))
  })
})
