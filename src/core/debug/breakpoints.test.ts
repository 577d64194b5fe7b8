import { describe, expect, it } from 'vitest'
import { scripted } from '../../test/scripted-model'
import { calls as assistantCalls, result, user } from '../../test/conversation'
import type { ModelOutput } from '../loop/interfaces'
import { LoopRunner } from '../loop/runner'
import { loopSettings } from '../loop/settings'
import type { ToolSpec } from '../tools/types'
import { replayEvents } from '../trace/replay-events'
import { armBreakpoints, breakpointRows, describeBreakpoint, firstHitInLog, parseBreakpointSpec } from './breakpoints'
import { compileCondition } from './condition'
import { runUntilBreak } from './run-to-break'
import { countedReads } from '../../test/counted-reads'

const charge: ToolSpec = { name: 'charge', description: 'Charge a card.', inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] } }
const lookup: ToolSpec = { name: 'lookup', description: 'Look up.', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }

const call = (name: string, args: unknown): ModelOutput => ({ kind: 'message', message: { content: null, tool_calls: [{ type: 'function', function: { name, arguments: JSON.stringify(args) } }] } })
const answer = (content: string): ModelOutput => ({ kind: 'message', message: { content } })

function runner(outputs: ModelOutput[], protocol = 'openai') {
  let t = 0
  const executed: string[] = []
  const r = new LoopRunner({
    model: scripted(outputs),
    executor: { execute: async (c) => (executed.push(`${c.name}:${JSON.stringify(c.arguments)}`), { ok: true, result: `done ${c.name}`, durationMs: 1 }) },
    clock: () => (t += 1),
  })
  r.start({ protocol, tools: [charge, lookup], messages: [{ role: 'user', content: 'go' }], maxSteps: 6, settings: loopSettings({}) })
  return { r, executed }
}

function armed(...specs: string[]) {
  return armBreakpoints(
    specs.map((spec, i) => {
      const parsed = parseBreakpointSpec(spec, `b${i + 1}`)
      if (!parsed.ok) throw new Error(parsed.error)
      return parsed.breakpoint
    }),
  ).armed
}

describe('conditions', () => {
  it('evaluates comparisons, boolean logic, filters and count() over the context', () => {
    const context = { call: { name: 'charge', arguments: { amount: 150 } }, errors: [], repairs: [{ code: 'fence' }], verdicts: [{ ok: true }, { ok: false }], turn: 3 }
    const test = (source: string) => {
      const c = compileCondition(source)
      if (!c.ok) throw new Error(c.error)
      return c.condition.test(context).value
    }
    expect(test("call.name == 'charge' && call.arguments.amount > 100")).toBe(true)
    expect(test("call.name == 'charge' && call.arguments.amount > 200")).toBe(false)
    expect(test('count(errors) > 0 || count(repairs) > 0')).toBe(true)
    expect(test('verdicts[.ok == false]')).toBe(true)
    expect(test('errors[.code == "x"]')).toBe(false)
    expect(test('turn == 3')).toBe(true)
    expect(test('')).toBe(true)
  })

  it('gives a clear error for text that does not parse, unknown names and functions, and .length', () => {
    const error = (source: string) => {
      const c = compileCondition(source)
      return c.ok ? 'parsed' : c.error
    }
    expect(error('call.arguments.amount >')).toMatch(/Cannot parse the condition: Unexpected end of expression/)
    expect(error('(turn == 3')).toMatch(/"\(" is not closed/)
    expect(error("call.name == 'x")).toMatch(/string opened with ' is not closed/)
    expect(error('amount > 3')).toMatch(/Unknown name "amount".*Known names: phase, turn/)
    expect(error('system(1)')).toMatch(/Unknown function "system"/)
    expect(error('errors.length > 0')).toMatch(/count\(list\)/)
  })

  it('never runs code: constructors and globals are not reachable', () => {
    expect(compileCondition('constructor.constructor("return 1")()').ok).toBe(false)
    const c = compileCondition("call.name.constructor == 'x'")
    expect(c.ok ? c.condition.test({ call: { name: 'x' } }).value : false).toBe(false)
  })

  it('reads breakpoint specs and writes them back', () => {
    for (const spec of ["before execute when call.name == 'charge'", 'after validate when verdicts[.ok == false]', 'on anomaly', 'at turn 3', 'on tool.finished', 'count(errors) > 0']) {
      const parsed = parseBreakpointSpec(spec)
      expect(parsed.ok && describeBreakpoint(parsed.breakpoint)).toBe(spec)
    }
    expect(parseBreakpointSpec('before dinner')).toEqual({ ok: false, error: expect.stringMatching(/Unknown phase "dinner"/) })
    expect(parseBreakpointSpec('on tool.started')).toEqual({ ok: false, error: expect.stringMatching(/Unknown event type/) })
    expect(parseBreakpointSpec('before execute when')).toEqual({ ok: false, error: expect.stringMatching(/Nothing follows "when"/) })
    expect(parseBreakpointSpec('after parse when errors >')).toEqual({ ok: false, error: expect.stringMatching(/Unexpected end/) })
  })

  it('skips disabled breakpoints and reports the ones whose condition does not parse', () => {
    const { armed: on, errors } = armBreakpoints([
      { id: 'a', enabled: false, on: { kind: 'any' }, condition: '' },
      { id: 'b', enabled: true, on: { kind: 'any' }, condition: 'turn ==' },
      { id: 'c', enabled: true, on: { kind: 'anomaly' }, condition: '' },
    ])
    expect(on.map((a) => a.breakpoint.id)).toEqual(['c'])
    expect(errors).toEqual([{ id: 'b', error: expect.stringMatching(/Unexpected end/) }])
  })
})

describe('breakpoints in a live run', () => {
  it('pauses before execute when a condition on the call holds, before the tool ran; Run again continues', async () => {
    const { r, executed } = runner([call('charge', { amount: 50 }), call('charge', { amount: 150 }), answer('charged')])
    const bps = armed("before execute when call.name == 'charge' && call.arguments.amount > 100")
    const hit = await runUntilBreak(r, bps)
    expect(hit).toMatchObject({ label: "before execute when call.name == 'charge' && call.arguments.amount > 100", where: 'before execute', call: { name: 'charge', arguments: { amount: 150 } } })
    // The 50 charge ran; the 150 one is held.
    expect(executed).toEqual(['charge:{"amount":50}'])
    expect(r.events.at(-1)!.type).toBe('validate.completed')
    expect(await runUntilBreak(r, bps, hit!.at)).toBeNull()
    expect(executed).toEqual(['charge:{"amount":50}', 'charge:{"amount":150}'])
    expect(r.state.stop?.reason).toBe('final_answer')
  })

  it('pauses after validate when a verdict failed, and at turn N', async () => {
    const { r } = runner([call('lookup', { q: 'a' }), call('lookup', {}), answer('done')])
    const hit = await runUntilBreak(r, armed('after validate when verdicts[.ok == false]'))
    expect(hit?.where).toMatch(/^after validate\.completed #\d+$/)
    expect(r.events.at(-1)).toMatchObject({ type: 'validate.completed', verdicts: [{ ok: false }] })

    const second = runner([call('lookup', { q: 'a' }), call('lookup', { q: 'b' }), answer('done')])
    const atTurn = await runUntilBreak(second.r, armed('at turn 3'))
    expect(atTurn?.where).toBe('before decide')
    expect(second.r.events.filter((e) => e.type === 'model.responded')).toHaveLength(2)
  })

  it('pauses after parse when the output needed repairs or had errors', async () => {
    const { r } = runner([{ kind: 'text', raw: '{"name": "lookup", "arguments": {"q": "a",}}' }, { kind: 'text', raw: 'done' }], 'json')
    const hit = await runUntilBreak(r, armed('after parse when count(errors) > 0 || count(repairs) > 0'))
    expect(hit).not.toBeNull()
    expect(r.events.at(-1)!.type).toBe('parse.completed')
  })

  it('runs to the end with no hit when nothing matches', async () => {
    const { r } = runner([call('lookup', { q: 'a' }), answer('done')])
    expect(await runUntilBreak(r, armed("before execute when call.name == 'charge'"))).toBeNull()
    expect(r.state.stop?.reason).toBe('final_answer')
  })
})

describe('breakpoints in a replay', () => {
  const events = replayEvents(
    {
      messages: [user('go'), assistantCalls(['lookup', 'c1', '{"q":"a"}']), result('c1', 'lookup'), assistantCalls(['lookup', 'c2', '{}']), result('c2', 'lookup'), assistantCalls(['lookup', 'c3', '{"q":"a"}']), result('c3', 'lookup')],
    },
    { tools: [lookup] },
  )

  it('goes to the first turn where validation failed', () => {
    const hit = firstHitInLog(armed('after validate when verdicts[.ok == false]'), events)
    expect(hit).not.toBeNull()
    expect(events[hit!.seq - 1]).toMatchObject({ type: 'validate.completed', verdicts: [{ callId: 'c2', ok: false }] })
  })

  it('continues from a hit to the next one, and stops on anomalies', () => {
    const bps = armed('before execute')
    const first = firstHitInLog(bps, events)
    const second = firstHitInLog(bps, events, first!.at)
    expect(first!.call?.id).toBe('c1')
    expect(second!.call?.id).toBe('c2')
    expect(second!.at).toBeGreaterThan(first!.at)
    const anomaly = firstHitInLog(armed('on anomaly'), events)
    expect(anomaly).not.toBeNull()
    expect(events[anomaly!.seq - 1]!.anomalies?.length).toBeGreaterThan(0)
  })

  it('marks the timeline rows where breakpoints are placed', () => {
    const spec = (text: string, enabled = true) => {
      const parsed = parseBreakpointSpec(text)
      if (!parsed.ok) throw new Error(parsed.error)
      return { ...parsed.breakpoint, enabled }
    }
    const rows = (text: string, enabled = true) => [...breakpointRows([spec(text, enabled)], events)].map((i) => events[i]!.type)
    expect(rows('before execute when call.id == "x"')).toEqual(['tool.finished', 'tool.finished', 'tool.finished'])
    expect(rows('at turn 2')).toEqual(['model.responded'])
    expect(rows('on loop.stopped')).toEqual(['loop.stopped'])
    expect(rows('at turn 2', false)).toEqual([])
    expect(rows('turn == 2')).toEqual([])
  })
})


describe('breakpoints on a huge turn', () => {
  // A turn of many parallel calls: the walk must not rebuild the log before each point.
  function hugeTurn(n: number) {
    const outputs: ModelOutput[] = [
      { kind: 'message', message: { content: null, tool_calls: Array.from({ length: n }, (_, i) => ({ id: `c${i}`, type: 'function' as const, function: { name: 'lookup', arguments: JSON.stringify({ q: `q${i}` }) } })) } },
      answer('done'),
    ]
    return outputs
  }

  it('walks a logged turn of 3 000 calls reading each event a bounded number of times, and still finds the last call', async () => {
    const { r } = runner(hugeTurn(3000))
    while (!r.stopped) await r.step()
    const events = r.events
    const reads = { count: 0 }
    const counted = countedReads([...events], reads)
    expect(firstHitInLog(armed("after execute when call.arguments.q == 'never'"), counted)).toBeNull()
    expect(reads.count).toBeLessThan(10 * events.length)
    const hit = firstHitInLog(armed("after execute when call.arguments.q == 'q2999'"), counted)
    expect(hit?.call?.id).toBe('c2999')
  })

  it('a live run with a breakpoint armed stops after the named call of a 3 000-call turn', async () => {
    const { r } = runner(hugeTurn(3000))
    const hit = await runUntilBreak(r, armed("after execute when call.arguments.q == 'q2998'"))
    expect(hit?.call?.id).toBe('c2998')
    expect(hit?.where).toMatch(/^after tool\.finished #\d+$/)
  })
})
