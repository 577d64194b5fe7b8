/**
 * Arguments nested 3 000 levels deep (beyond the 512-level limit for arguments) through the loop:
 * the parse reports them as too deep and the run goes on, in a native message and in text.
 */
import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '../tools/types'
import type { ModelOutput } from './interfaces'
import { LoopRunner } from './runner'

const deep = (() => {
  let text = '1'
  for (let level = 0; level < 3_000; level++) text = `{"a":${text}}`
  return text
})()
const tool: ToolSpec = { name: 'deep', description: 'Takes anything.', inputSchema: { type: 'object' } }

async function runWith(first: ModelOutput, protocol: string) {
  let executed = 0
  const runner = new LoopRunner({
    model: { respond: async ({ step }) => (step === 0 ? first : { kind: 'text', raw: 'done' }) },
    executor: { execute: async () => ((executed += 1), { ok: true, result: 'ok', durationMs: 0 }) },
    clock: () => 0,
  })
  runner.start({ protocol, tools: [tool], messages: [{ role: 'user', content: 'go' }], maxSteps: 3 })
  const events = await runner.run()
  return { events, executed, state: runner.state }
}

describe('arguments nested 3 000 levels deep', () => {
  it('in a native tool call: a clear parse error, nothing runs, the run ends normally', async () => {
    const { events, executed, state } = await runWith({ kind: 'message', message: { content: null, tool_calls: [{ id: 'c1', function: { name: 'deep', arguments: deep } }] } }, 'openai')
    const parse = events.find((event) => event.type === 'parse.completed')
    expect(parse?.type === 'parse.completed' && parse.errors.map((error) => error.message).join(' ')).toMatch(/deeper than 512 levels/)
    expect(executed).toBe(0)
    expect(state.stop?.reason).toBe('final_answer')
  })

  it('in a text format: the same', async () => {
    const { events, executed, state } = await runWith({ kind: 'text', raw: `<tool_call>{"name": "deep", "arguments": ${deep}}</tool_call>` }, 'xml-tag')
    const parse = events.find((event) => event.type === 'parse.completed')
    expect(parse?.type === 'parse.completed' && parse.errors.map((error) => error.message).join(' ')).toMatch(/deeper than 512 levels/)
    expect(executed).toBe(0)
    expect(state.stop?.reason).toBe('final_answer')
  })
})
