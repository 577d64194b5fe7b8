import { describe, expect, it } from 'vitest'
import { createBreakpointRows, breakpointRows, type Breakpoint } from '../../core/debug'
import { LoopRunner, type SessionEvent } from '../../core/loop'
import { createEdgeCounter, edgeCounts } from './loop-graph'
import { countedReads } from '../../test/counted-reads'

/** A live run's logs as the store sees them: one new array after every phase. */
async function growingLogs(turns: number, calls: number): Promise<SessionEvent[][]> {
  let turn = 0
  const runner = new LoopRunner({
    model: {
      respond: async () =>
        turn++ < turns
          ? { kind: 'message', message: { content: null, tool_calls: Array.from({ length: calls }, (_, i) => ({ id: `c${turn}_${i}`, type: 'function' as const, function: { name: 'echo', arguments: `{"n":${i}}` } })) } }
          : { kind: 'text', raw: 'done' },
    },
    executor: { execute: async (call) => ({ ok: true, result: JSON.stringify(call.arguments), durationMs: 0 }) },
    clock: () => 0,
  })
  runner.start({ protocol: 'openai', tools: [{ name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }], messages: [{ role: 'user', content: 'go' }], maxSteps: turns + 2 })
  const logs = [runner.events]
  while (!runner.stopped) {
    await runner.step()
    logs.push(runner.events)
  }
  return logs
}


const breakpoints: Breakpoint[] = [
  { id: 'b1', enabled: true, on: { kind: 'after', phase: 'execute' }, condition: '' },
  { id: 'b2', enabled: true, on: { kind: 'turn', turn: 3 }, condition: '' },
]

describe('derivations of a growing log', () => {
  it('the diagram counts each log of a live run as edgeCounts does, reading only the events a phase appended', async () => {
    const logs = await growingLogs(30, 20)
    const count = createEdgeCounter()
    for (const log of logs.slice(0, -1)) expect(count(log)).toEqual(edgeCounts(log))
    const last = logs.at(-1)!
    const appended = last.length - logs.at(-2)!.length
    const reads = { count: 0 }
    expect(count(countedReads(last, reads))).toEqual(edgeCounts(last))
    expect(reads.count).toBeLessThanOrEqual(appended + 2)
    // Another log (Reset, then an import) is counted from its start.
    const other = last.slice(0, 7).map((e) => ({ ...e }))
    expect(count(other)).toEqual(edgeCounts(other))
  })

  it('the timeline marks the rows breakpointRows marks, reading only the new events, and a held answer keeps to its log', async () => {
    const logs = await growingLogs(30, 20)
    const rowsOf = createBreakpointRows()
    const rowsIn = (marks: { has(row: number): boolean }, length: number) => Array.from({ length }, (_, i) => i).filter((i) => marks.has(i))
    const held = rowsOf(breakpoints, logs[10]!)
    for (const log of logs.slice(0, -1)) expect(rowsIn(rowsOf(breakpoints, log), log.length + 5)).toEqual([...breakpointRows(breakpoints, log)])
    const last = logs.at(-1)!
    const appended = last.length - logs.at(-2)!.length
    const reads = { count: 0 }
    expect(rowsIn(rowsOf(breakpoints, countedReads(last, reads)), last.length)).toEqual([...breakpointRows(breakpoints, last)])
    // Each new event is read with the one before it (a phase starts where the phase changes).
    expect(reads.count).toBeLessThanOrEqual(2 * appended + 2)
    expect(rowsIn(held, last.length)).toEqual([...breakpointRows(breakpoints, logs[10]!)])
    // Other breakpoints: from the start.
    const only: Breakpoint[] = [breakpoints[1]!]
    expect(rowsIn(rowsOf(only, last), last.length)).toEqual([...breakpointRows(only, last)])
  })
})
