import { afterAll, describe, expect, it } from 'vitest'
import { type SessionEvent, LoopRunner, type ConfirmHandler, DEFAULT_LOOP_SETTINGS, loopSettings, runInitFor } from '../core/loop/index'
import { formats } from '../core/protocols/index'
import { createNodeSandbox } from '../sandbox/node-sandbox'
import { defaultExample, examples, findExample, type Example } from './index'

const PROTOCOLS = ['openai', 'json', 'xml-tag'] as const
const sandbox = createNodeSandbox()
afterAll(() => sandbox.dispose())

type EventOf<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>

/**
 * Runs `example` to the end with the real engine and its own loop settings, its code in the Node
 * sandbox (which also routes, summarizes and runs code blocks). Without `confirm` every call to
 * a dangerous tool is denied.
 */
async function run(example: Example, protocol: string, options: { confirm?: ConfirmHandler; clock?: () => number } = {}) {
  const loaded = await sandbox.load({ tools: example.tools, model: example.model })
  expect(loaded.ok ? [] : loaded.errors).toEqual([])
  const runner = new LoopRunner({ model: sandbox, executor: sandbox, router: sandbox, summarizer: sandbox, codeRunner: sandbox, clock: () => 0, ...options })
  const settings = { protocol, maxSteps: example.maxSteps ?? 8, systemPrompt: '', loop: loopSettings(example.settings) }
  runner.start(runInitFor({ input: example.input, settings }, loaded.tools))
  await runner.run()
  const events = runner.events
  const of = <T extends SessionEvent['type']>(type: T) => events.filter((event): event is EventOf<T> => event.type === type)
  return { state: runner.state, finished: of('tool.finished'), of }
}

describe('examples registry', () => {
  it('has unique ids, the weather example first, and real sources', () => {
    expect(new Set(examples.map((example) => example.id)).size).toBe(examples.length)
    expect(defaultExample.id).toBe('weather')
    expect(findExample('errors')?.title).toBeTruthy()
    for (const example of examples) {
      expect(example.tools).toContain("from 'toolstep'")
      expect(example.model).toContain('export default')
    }
  })

  it('gives only real loop settings, with valid values', () => {
    const known = Object.keys(DEFAULT_LOOP_SETTINGS)
    for (const example of examples) {
      // The schema strips unknown keys silently, so a misspelt setting would just not apply.
      expect(Object.keys(example.settings ?? {}).filter((key) => !known.includes(key)), example.id).toEqual([])
      expect(() => loopSettings(example.settings), example.id).not.toThrow()
    }
  })
})

describe.each(PROTOCOLS)('examples in the Node sandbox, protocol %s', (protocol) => {
  it('weather: calls get_weather and calculate, then answers from their results', async () => {
    const { state, finished } = await run(findExample('weather') as Example, protocol)
    expect(finished.map((event) => [event.name, event.error ?? 'ok'])).toEqual([
      ['get_weather', 'ok'],
      ['calculate', 'ok'],
    ])
    expect(state.stop?.reason).toBe('final_answer')
    expect(state.finalAnswer).toMatch(/^In Paris it is -?\d+ °C and [a-z ]+\. \(12 \+ 30\) \* 2 = 84\.$/)
  })

  it('errors: an unknown tool, invalid arguments and a throwing tool are written back, then it answers', async () => {
    const { state, finished } = await run(findExample('errors') as Example, protocol)
    expect(finished.map((event) => event.name)).toEqual(['get_wether', 'get_weather', 'lookup_order'])
    expect(finished.every((event) => event.error !== undefined && !event.timedOut)).toBe(true)
    expect(finished[2]?.error).toContain('Order A999 does not exist.')
    // Written back once as an error, never as "Error: Error: …".
    const toolMessages = state.conversation.toArray().filter((m) => m.role === 'tool').map((m) => m.content)
    expect(toolMessages.some((c) => c.includes('Order A999 does not exist.'))).toBe(true)
    expect(toolMessages.filter((c) => /Error: Error:/.test(c))).toEqual([])
    expect(state.stop?.reason).toBe('final_answer')
    expect(state.finalAnswer).toContain('Every call failed')
  })

  it('never-answers: stops with max_steps', async () => {
    const { state, finished } = await run(findExample('never-answers') as Example, protocol)
    expect(state.stop?.reason).toBe('max_steps')
    expect(finished).toHaveLength(5)
    expect(finished.every((event) => event.result !== undefined)).toBe(true)
  })
})

describe('hanging-tool in the Node sandbox', () => {
  // One protocol is enough here: each run waits out two 1 s timeouts, and the other examples
  // already cover every protocol's wire format.
  it('kills both hanging tools at 1 s and carries on', async () => {
    const example = findExample('hanging-tool') as Example
    const { state, finished } = await run(example, example.protocol)
    expect(finished.map((event) => [event.name, event.timedOut])).toEqual([
      ['spin', true],
      ['wait_forever', true],
      ['get_weather', false],
    ])
    expect(finished[0]?.error).toMatch(/^Tool "spin" timed out after \d+(\.\d)? m?s \(limit 1000 ms\) and was stopped\./)
    expect(finished[2]?.result).toContain('Lisbon')
    expect(state.stop?.reason).toBe('final_answer')
  })
})

// The wire-format picker lists every format: the default example must work in each of them.
describe('the weather example in every wire format', () => {
  const textValued = new Set(['pipe', 'qwen3-coder', 'glm45'])
  for (const format of formats.filter((f) => !PROTOCOLS.includes(f.id as (typeof PROTOCOLS)[number]))) {
    it(`${format.id}: calls both tools, then answers`, async () => {
      const { state, finished } = await run(findExample('weather') as Example, format.id)
      expect(finished.map((event) => event.name)).toEqual(['get_weather', 'calculate'])
      if (!textValued.has(format.id)) expect(finished.every((event) => event.error === undefined)).toBe(true)
      expect(state.stop?.reason).toBe('final_answer')
    })
  }
})

// The examples of the loop's behaviours, each in the protocol it ships with and with its own settings.
describe('behaviour examples in the Node sandbox', () => {
  const example = (id: string) => findExample(id) as Example

  it('validation: repairs "3", the city_name alias and an unknown argument; names the problems; the model corrects itself', async () => {
    const { state, finished, of } = await run(example('validation'), 'json')
    const verdicts = of('validate.completed').map((event) => event.verdicts[0])
    expect(verdicts[0]).toMatchObject({ ok: true, arguments: { city: 'Paris', days: 3 }, warnings: [expect.stringContaining('"units"')] })
    expect(verdicts[0]?.coercions).toEqual([expect.stringContaining('city_name'), expect.stringContaining('"3"')])
    expect(verdicts[1]).toMatchObject({ ok: false, problems: ['"city" is required', expect.stringMatching(/"days" must be .*14/)] })
    expect(verdicts[2]).toMatchObject({ ok: true, arguments: { city: 'Paris', days: 14 } })
    expect(finished.map((event) => event.error === undefined)).toEqual([true, false, true])
    expect(state.stop?.reason).toBe('final_answer')
  })

  it('tool-names: normalized, alias and fuzzy names resolve; constructor does not', async () => {
    const { state, finished, of } = await run(example('tool-names'), 'openai')
    expect(of('validate.completed').map((event) => event.verdicts[0]?.resolution)).toEqual(['normalized', 'normalized', 'alias', 'fuzzy', undefined])
    expect(finished.slice(0, 4).every((event) => event.name === 'get_weather' && event.result !== undefined)).toBe(true)
    expect(finished[4]?.error).toContain('Unknown tool "constructor". Available tools: get_weather, get_time.')
    expect(state.stop?.reason).toBe('final_answer')
  })

  it('parse-retry: broken JSON gets a correction, and the second call parses and runs', async () => {
    const { state, finished, of } = await run(example('parse-retry'), 'xml-tag')
    const parses = of('parse.completed')
    expect(parses[0]).toMatchObject({ calls: [], errors: [{ code: 'invalid_json' }] })
    expect(parses[1]?.calls.map((call) => call.name)).toEqual(['get_weather'])
    expect(finished).toHaveLength(1)
    expect(finished[0]?.result).toContain('"days":2')
    expect(state.stop?.reason).toBe('final_answer')
  })

  it('fallback-chain: native, json and xml-tag turns each parse, and the chain says which matched', async () => {
    const { state, finished, of } = await run(example('fallback-chain'), 'openai')
    const parses = of('parse.completed')
    expect(parses.map((event) => event.protocol)).toEqual(['openai', 'json', 'xml-tag', 'openai'])
    expect(parses[2]?.detection).toMatch(/xml-tag: 1 call \(matched\)/)
    expect(finished.map((event) => [event.name, event.error])).toEqual([
      ['get_weather', undefined],
      ['get_time', undefined],
      ['convert_currency', undefined],
    ])
    expect(state.stop?.reason).toBe('final_answer')
  })

  it('repeated-call: stops with repeated_call on the third identical call', async () => {
    const { state, finished } = await run(example('repeated-call'), 'json')
    expect(state.stop?.reason).toBe('repeated_call')
    expect(finished).toHaveLength(2)
  })

  it('parallel-calls: runs concurrently, honours dependsOn, isolates the failure, backfills one message per id in order', async () => {
    const { state, finished, of } = await run(example('parallel-calls'), 'json', { clock: Date.now })
    expect(finished.map((event) => [event.callId, event.name, event.error === undefined])).toEqual([
      ['paris', 'get_weather', true],
      ['oslo', 'get_weather', true],
      ['atlantis', 'get_weather', false],
      ['pack', 'packing_list', true],
    ])
    const byId = new Map(finished.map((event) => [event.callId, event]))
    const paris = byId.get('paris')
    // The two independent weather calls overlap; the packing list starts only after Paris finished.
    expect(byId.get('oslo')?.startOffsetMs).toBeLessThan(paris?.durationMs ?? 0)
    expect(byId.get('pack')?.startOffsetMs ?? 0).toBeGreaterThanOrEqual((paris?.startOffsetMs ?? 0) + (paris?.durationMs ?? 0) - 2)
    const toolMessages = of('backfill.completed')[0]?.messages.filter((message) => message.role === 'tool')
    expect(toolMessages?.map((message) => (message.role === 'tool' ? message.tool_call_id : ''))).toEqual(['paris', 'oslo', 'atlantis', 'pack'])
    expect(state.stop?.reason).toBe('final_answer')
  })

  it.each(['openai', 'xml-tag'])('parallel-calls in %s: four results, one failure', async (protocol) => {
    const { state, finished } = await run(example('parallel-calls'), protocol)
    expect(finished.map((event) => event.error === undefined)).toEqual([true, true, false, true])
    expect(state.stop?.reason).toBe('final_answer')
  })

  it('dangerous-tool: asks first; a denial is written back, an approval runs the tool', async () => {
    const denied = await run(example('dangerous-tool'), 'openai')
    expect(denied.of('confirm.requested')).toHaveLength(1)
    expect(denied.finished[1]).toMatchObject({ name: 'delete_file', declined: true })
    expect(denied.state.finalAnswer).toContain('You declined the deletion')

    const approved = await run(example('dangerous-tool'), 'openai', { confirm: async (calls) => calls.map((call) => ({ callId: call.call.id, decision: 'approve' as const })) })
    expect(approved.finished[1]?.result).toBe('Deleted notes/old-draft.md. Remaining: notes/todo.md, notes/ideas.md')
    expect(approved.state.finalAnswer).toMatch(/^Done: Deleted/)
  })

  it('sequential-calls: the three steps run one at a time, in call order', async () => {
    const { state, finished } = await run(example('sequential-calls'), example('sequential-calls').protocol)
    expect(finished.map((event) => event.name)).toEqual(['reserve_seat', 'pay', 'send_confirmation'])
    const reports = finished.map((event) => JSON.parse(event.result ?? '{}') as { concurrent: number; doneSoFar: string[] })
    expect(reports.map((report) => report.concurrent)).toEqual([1, 1, 1])
    expect(reports[2]?.doneSoFar).toEqual(['reserve_seat', 'pay', 'send_confirmation'])
    expect(state.finalAnswer).toContain('Each step ran alone, in order.')
  })

  it('sequential-calls switched to parallel: the same steps overlap', async () => {
    const parallel = { ...example('sequential-calls'), settings: { execution: 'parallel' } }
    const { finished } = await run(parallel, parallel.protocol)
    expect(Math.max(...finished.map((event) => (JSON.parse(event.result ?? '{}') as { concurrent: number }).concurrent))).toBeGreaterThan(1)
  })

  it('unknown-arguments: the call with undeclared arguments is rejected by name, the corrected one runs', async () => {
    const { state, finished, of } = await run(example('unknown-arguments'), example('unknown-arguments').protocol)
    const first = of('validate.completed')[0]?.verdicts[0]
    expect(first?.ok).toBe(false)
    expect(first?.problems.join(' ')).toMatch(/units/)
    expect(first?.problems.join(' ')).toMatch(/lang/)
    expect(finished[0]?.error).toBeDefined()
    expect(finished[1]?.result).toContain('"unit":"celsius"')
    expect(state.stop?.reason).toBe('final_answer')
  })

  it('result-truncation: the result is cut to 600 chars with the marker, and the model sees it', async () => {
    const { state, finished } = await run(example('result-truncation'), example('result-truncation').protocol)
    expect(finished[0]).toMatchObject({ truncated: true, originalChars: 5000 })
    expect(finished[0]?.result).toMatch(/…\[truncated: showing 600 of 5000 chars\]$/)
    expect(state.finalAnswer).toBe('I saw only 600 of 5000 characters of src/big.ts; ask me to read a smaller part for the rest.')
  })

  it('parse-give-up: after one correction the malformed text is taken as the final answer', async () => {
    const { state, finished, of } = await run(example('parse-give-up'), example('parse-give-up').protocol)
    expect(finished).toHaveLength(0)
    expect(of('model.responded')).toHaveLength(2)
    expect(of('parse.completed').every((event) => event.errors.length > 0)).toBe(true)
    expect(state.stop).toMatchObject({ reason: 'final_answer', detail: 'The malformed output was taken as the final answer.' })
    expect(state.finalAnswer).toContain('Tool calls are retried when the output cannot be parsed.')
  })

  it('result-shaping: the long log goes through summarize; the injection attempt is wrapped and flagged', async () => {
    const { state, finished } = await run(example('result-shaping'), 'json')
    expect(finished[0]).toMatchObject({ name: 'fetch_logs', summarized: true, originalChars: 10_000, wrapped: true })
    expect(finished[0]?.result).toContain('[fetch_logs: ')
    expect((finished[0]?.result ?? '').length).toBeLessThan(2000)
    expect(finished[1]).toMatchObject({ name: 'read_webpage', wrapped: true })
    expect(finished[1]?.injection?.map((span) => span.text).join(' ')).toMatch(/ignore previous instructions/i)
    expect(state.stop?.reason).toBe('final_answer')
  })

  it('context-window: later decides see only the last 6 messages, and the question falls out', async () => {
    const { state, of } = await run(example('context-window'), 'openai')
    const windows = of('model.responded').map((event) => event.window)
    expect(windows.at(-1)).toEqual({ from: 6, to: 12 })
    expect(state.finalAnswer).toContain('I can no longer see your question')
  })

  it('routing: the route hook offers 4 of the 8 tools, and the model uses namespaced ones', async () => {
    const { state, finished, of } = await run(example('routing'), 'json')
    expect(of('session.started')[0]?.tools).toHaveLength(8)
    expect(of('model.responded')[0]?.offeredTools).toEqual(['weather.current', 'weather.forecast', 'calendar.list_events', 'calendar.create_event'])
    expect(finished.map((event) => event.name)).toEqual(['weather.current', 'calendar.list_events'])
    expect(state.stop?.reason).toBe('final_answer')
  })

  it('code-as-action: the block calls both tools (each call on the timeline) and its output is written back', async () => {
    const { state, finished } = await run(example('code-as-action'), 'json')
    expect(finished.map((event) => [event.name, event.parentCallId !== undefined])).toEqual([
      ['weather.current', true],
      ['convert_temperature', true],
      ['weather.current', true],
      ['convert_temperature', true],
      ['run_code', false],
    ])
    expect(finished[4]?.result).toBe('Paris: 19 °C = 66.2 °F\nMadrid: 24 °C = 75.2 °F')
    expect(state.finalAnswer).toContain('Madrid: 24 °C = 75.2 °F')
  })

  it('fault-injection: the flight search times out on turn 1, the hotels are slow, and the retry works', async () => {
    const { state, finished } = await run(example('fault-injection'), 'xml-tag', { clock: Date.now })
    expect(finished.map((event) => [event.name, event.fault, event.timedOut])).toEqual([
      ['search_flights', 'timeout', true],
      ['search_hotels', 'latency', false],
      ['search_flights', undefined, false],
    ])
    expect(finished[1]?.durationMs).toBeGreaterThanOrEqual(790)
    expect(state.finalAnswer).toContain('CDG→LIS 08:15')
  })

  it('step-limit: max steps reached mid tool use, the last turn without tools still answers', async () => {
    const { state, finished } = await run(example('step-limit'), 'json')
    expect(finished).toHaveLength(3)
    expect(state.stop?.reason).toBe('max_steps')
    expect(state.finalAnswer).toMatch(/^I read 3 pages before the step limit/)
  })

  it('transient-timeout: the injected timeout hits the first attempt, the retry succeeds', async () => {
    const { state, finished } = await run(example('transient-timeout'), 'openai')
    expect(finished.map((event) => [event.name, event.fault, event.attempts, event.error ?? 'ok'])).toEqual([['get_weather', 'timeout', 2, 'ok']])
    expect(state.finalAnswer).toBe('In Paris it is 21 °C and sunny.')
  })
})
