import { describe, expect, it } from 'vitest'
import { scripted } from '../../test/scripted-model'
import type { SessionEvent } from './events'
import type { Model, ModelOutput, ToolExecutor } from './interfaces'
import { fold, type LoopState } from './reducer'
import { LoopRunner } from './runner'
import type { ToolSpec } from '../tools/types'

const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
}

function call(name: string, args: unknown, id?: string): ModelOutput {
  return { kind: 'message', message: { content: null, tool_calls: [{ ...(id ? { id } : {}), type: 'function', function: { name, arguments: JSON.stringify(args) } }] } }
}
const answer = (text: string): ModelOutput => ({ kind: 'message', message: { content: text } })

const executor: ToolExecutor = {
  async execute(c) {
    if (c.name === 'get_weather') return { ok: true, result: JSON.stringify({ city: c.arguments.city, tempC: 18 }), durationMs: 3 }
    return { ok: false, error: 'boom', durationMs: 1, timedOut: false }
  },
}

function runner(model: Model, exec: ToolExecutor = executor) {
  let t = 1000
  const states: LoopState[] = []
  const r = new LoopRunner({ model, executor: exec, clock: () => (t += 1), onEvent: (_e, s) => states.push(s) })
  r.start({ protocol: 'openai', tools: [weather], messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'Weather in Oslo?' }], maxSteps: 3 })
  return { r, states }
}

const types = (events: SessionEvent[]) => events.map((e) => e.type)

describe('loop engine', () => {
  it('calls a tool, backfills the result paired by tool_call_id, then stops with final_answer', async () => {
    const model = scripted([call('get_weather', { city: 'Oslo' }, 'call_a'), answer('It is 18 °C in Oslo.')])
    const { r } = runner(model)
    const events = await r.run()
    expect(types(events)).toEqual([
      'session.started',
      'model.responded', 'parse.completed', 'validate.completed', 'tool.finished', 'backfill.completed',
      'model.responded', 'parse.completed', 'backfill.completed', 'loop.stopped',
    ])
    expect(r.state.stop?.reason).toBe('final_answer')
    expect(r.state.finalAnswer).toBe('It is 18 °C in Oslo.')
    // The second decide saw the assistant call and its tool message.
    const seen = model.requests[1]!.messages
    expect(seen.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_a', name: 'get_weather', arguments: { city: 'Oslo' } }] })
    expect(seen.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_a', name: 'get_weather', content: '{"city":"Oslo","tempC":18}' })
  })

  it('stops with max_steps when the model never answers', async () => {
    // Different arguments each turn, so repeated-call detection does not stop it first.
    const { r } = runner(scripted([(req) => call('get_weather', { city: `Oslo ${req.step}` })]))
    await r.run()
    expect(r.state.stop).toMatchObject({ reason: 'max_steps' })
    expect(r.events.filter((e) => e.type === 'model.responded')).toHaveLength(3)
  })

  it('stops with error when the model throws, keeping the message', async () => {
    const model: Model = { respond: async () => { throw new Error('model.ts:3 boom') } }
    const { r } = runner(model)
    const events = await r.run()
    expect(events.find((e) => e.type === 'model.failed')).toMatchObject({ error: 'model.ts:3 boom' })
    expect(r.state.stop?.reason).toBe('error')
  })

  it('writes unknown tools and invalid arguments back as tool errors and keeps going', async () => {
    const model = scripted([
      { kind: 'message', message: { content: null, tool_calls: [
        { id: 'x1', function: { name: 'get_wether', arguments: '{"city":"Oslo"}' } },
        { id: 'x2', function: { name: 'get_weather', arguments: '{"town":"Oslo"}' } },
      ] } },
      answer('Sorry.'),
    ])
    const { r } = runner(model)
    await r.run()
    const verdicts = r.events.find((e) => e.type === 'validate.completed')
    expect(verdicts).toMatchObject({ verdicts: [{ callId: 'x1', ok: false }, { callId: 'x2', ok: false }] })
    const toolMessages = model.requests[1]!.messages.filter((m) => m.role === 'tool')
    expect(toolMessages).toHaveLength(2)
    expect(toolMessages[0]).toMatchObject({ tool_call_id: 'x1', isError: true })
    expect(toolMessages[0]!.content).toContain('Unknown tool "get_wether"')
    expect(toolMessages[0]!.content).toContain('get_weather')
    expect(toolMessages[1]).toMatchObject({ tool_call_id: 'x2', isError: true })
    expect(toolMessages[1]!.content).toContain('city')
    expect(r.state.stop?.reason).toBe('final_answer')
  })

  it('gives calls without an id a generated, unique tool_call_id', async () => {
    const model = scripted([
      { kind: 'message', message: { content: null, tool_calls: [
        { function: { name: 'get_weather', arguments: '{"city":"A"}' } },
        { function: { name: 'get_weather', arguments: '{"city":"B"}' } },
      ] } },
      answer('ok'),
    ])
    const { r } = runner(model)
    await r.run()
    const tools = model.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => (m as { tool_call_id: string }).tool_call_id)
    expect(new Set(tools).size).toBe(2)
  })

  it('reports a tool timeout as an error on its own call only', async () => {
    const exec: ToolExecutor = {
      async execute(c) {
        return c.arguments.city === 'slow'
          ? { ok: false, error: 'Tool "get_weather" timed out after 5000 ms and was stopped.', durationMs: 5000, timedOut: true }
          : { ok: true, result: 'sunny', durationMs: 1 }
      },
    }
    const model = scripted([
      { kind: 'message', message: { content: null, tool_calls: [
        { id: 'a', function: { name: 'get_weather', arguments: '{"city":"slow"}' } },
        { id: 'b', function: { name: 'get_weather', arguments: '{"city":"fast"}' } },
      ] } },
      answer('done'),
    ])
    const { r } = runner(model, exec)
    await r.run()
    const finished = r.events.filter((e) => e.type === 'tool.finished')
    expect(finished).toMatchObject([{ callId: 'a', timedOut: true }, { callId: 'b', result: 'sunny', timedOut: false }])
  })

  it('answers a native call with cut-off arguments by its tool_call_id instead of a correction', async () => {
    const model = scripted([
      { kind: 'message', message: { content: null, tool_calls: [{ id: 'c', function: { name: 'get_weather', arguments: '{"city": "Os' } }] } },
      answer('fine'),
    ])
    const { r } = runner(model)
    await r.run()
    const [assistant, result, ...rest] = model.requests[1]!.messages.slice(-2)
    expect(assistant).toMatchObject({ role: 'assistant', content: null, tool_calls: [{ id: 'c', rawArguments: '{"city": "Os' }] })
    expect(result).toMatchObject({ role: 'tool', tool_call_id: 'c', isError: true, content: expect.stringContaining('arguments cut off at char 12') })
    expect(rest).toEqual([])
    expect(r.state.stop?.reason).toBe('final_answer')
  })

  it('does not echo a malformed native message as assistant text', async () => {
    const model = scripted([{ kind: 'message', message: { content: null, tool_calls: [{ id: 'c', function: { name: '', arguments: '{}' } }] } }, answer('fine')])
    const { r } = runner(model)
    await r.run()
    const [assistant, correction] = model.requests[1]!.messages.slice(-2)
    expect(assistant).toEqual({ role: 'assistant', content: '' })
    expect(correction).toMatchObject({ role: 'user', content: expect.stringContaining('no function name') })
  })

  it('abort stops the run and discards the in-flight phase', async () => {
    let release: (v: ModelOutput) => void = () => {}
    const model: Model = { respond: () => new Promise((resolve) => { release = resolve }) }
    const { r } = runner(model)
    const pending = r.step()
    r.abort()
    release(answer('late'))
    await pending
    expect(types(r.events)).toEqual(['session.started', 'loop.stopped'])
    expect(r.state.stop?.reason).toBe('aborted')
  })

  it('the state at cursor k equals the fold of events 0..k', async () => {
    const model = scripted([call('get_weather', { city: 'Oslo' }, 'id1'), call('nope', {}, 'id2'), answer('done')])
    const { r, states } = runner(model)
    const events = await r.run()
    expect(states).toHaveLength(events.length)
    events.forEach((_e, k) => expect(fold(events.slice(0, k + 1))).toEqual(states[k]))
    // And a JSON round trip of the log (what a session file does) folds to the same end state.
    expect(fold(JSON.parse(JSON.stringify(events)) as SessionEvent[])).toEqual(r.state)
  })
})
