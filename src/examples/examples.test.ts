import { afterAll, describe, expect, it } from 'vitest'
import type { SessionEvent } from '../core/loop/events'
import { LoopRunner } from '../core/loop/runner'
import { runInitFor } from '../core/loop/start'
import { formats } from '../core/protocols/index'
import { createNodeSandbox } from '../sandbox/node-sandbox'
import { defaultExample, examples, findExample, type Example } from './index'

const PROTOCOLS = ['openai', 'json', 'xml-tag'] as const
const sandbox = createNodeSandbox()
afterAll(() => sandbox.dispose())

/** Runs `example` to the end with the real engine, its code in the Node sandbox. */
async function run(example: Example, protocol: string) {
  const loaded = await sandbox.load({ tools: example.tools, model: example.model })
  expect(loaded.ok ? [] : loaded.errors).toEqual([])
  const runner = new LoopRunner({ model: sandbox, executor: sandbox, clock: () => 0 })
  runner.start(runInitFor({ input: example.input, settings: { protocol, maxSteps: example.maxSteps ?? 8, systemPrompt: '' } }, loaded.tools))
  await runner.run()
  const finished = runner.events.filter((event): event is Extract<SessionEvent, { type: 'tool.finished' }> => event.type === 'tool.finished')
  return { state: runner.state, finished }
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
    expect(finished[0]?.error).toBe('Tool "spin" timed out after 1000 ms and was stopped.')
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
