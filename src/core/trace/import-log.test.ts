import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importLog, importOpenAITools, LOG_FORMATS } from './import-log'

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../__fixtures__/${name}`, import.meta.url)), 'utf8')

function imported(text: string, options?: Parameters<typeof importLog>[1]) {
  const result = importLog(text, options)
  if (!result.ok) throw new Error(result.error)
  return result
}

function failure(text: string, options?: Parameters<typeof importLog>[1]): string {
  const result = importLog(text, options)
  if (result.ok) throw new Error('expected the import to fail')
  return result.error
}

describe('importLog: tau-bench fixture', () => {
  const result = imported(fixture('tau-bench-gpt-4o-airline.json'))

  it('reads 200 conversations with 5308 messages', () => {
    expect(result.format).toBe('openai-conversations')
    expect(result.conversations).toHaveLength(200)
    expect(result.conversations.reduce((sum, conversation) => sum + conversation.messages.length, 0)).toBe(5308)
  })

  it('names conversations by task, trial and reward, uniquely', () => {
    const first = result.conversations[0]!
    expect(first).toMatchObject({ id: 'task-0-trial-0', label: 'task 0 · trial 0 · reward 0', path: '[0].traj', meta: { task_id: 0, trial: 0, reward: 0 } })
    expect(new Set(result.conversations.map((conversation) => conversation.id)).size).toBe(200)
  })

  it('parses arguments and keeps the raw string', () => {
    const call = result.conversations[0]!.messages.flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []) : []))[0]
    expect(call).toEqual({ id: 'call_oIHazX6yQrB8hUwl4cRilFKj', name: 'get_user_details', arguments: { user_id: 'mia_li_3668' }, rawArguments: '{"user_id":"mia_li_3668"}' })
  })
})

describe('importLog: shapes', () => {
  const messages = [
    { role: 'developer', content: [{ type: 'text', text: 'Be brief.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Weather in ' }, { type: 'text', text: 'Paris?' }, { type: 'image_url', image_url: { url: 'x' } }] },
    { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"' } }] },
    { role: 'tool', tool_call_id: 'a', content: 'sunny' },
    { role: 'assistant', content: 'Sunny.', tool_calls: [] },
  ]

  it('reads a bare messages array', () => {
    const result = imported(JSON.stringify(messages))
    expect(result.format).toBe('openai-messages')
    expect(result.conversations).toHaveLength(1)
    expect(result.conversations[0]!.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?[image_url]' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', name: 'get_weather', arguments: {}, rawArguments: '{"city":"Paris"' }] },
      { role: 'tool', tool_call_id: 'a', name: 'get_weather', content: 'sunny' },
      { role: 'assistant', content: 'Sunny.' },
    ])
  })

  it('reads a request object with tools', () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', description: 'Weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
    const result = imported(JSON.stringify({ model: 'gpt-4o', messages, tools }))
    expect(result.format).toBe('openai-messages')
    expect(result.conversations[0]!.tools).toEqual([{ name: 'get_weather', description: 'Weather.', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }])
  })

  it('reads a list of records with messages, and a list of bare arrays', () => {
    const records = imported(JSON.stringify([{ id: 'x', messages }, { id: 'x', messages }]))
    expect(records.format).toBe('openai-conversations')
    expect(records.conversations.map((conversation) => conversation.id)).toEqual(['x', 'x#1'])
    const arrays = imported(JSON.stringify([messages, messages]))
    expect(arrays.conversations.map((conversation) => [conversation.id, conversation.label, conversation.path])).toEqual([
      ['0', 'conversation 0', '[0]'],
      ['1', 'conversation 1', '[1]'],
    ])
  })

  it('decodes double-encoded arguments and accepts object arguments', () => {
    const log = [
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', function: { name: 'f', arguments: JSON.stringify('{"x":1}') } }, { id: 'b', function: { name: 'g', arguments: { y: 2 } } }, { function: { name: 'h', arguments: '' } }] },
    ]
    const calls = imported(JSON.stringify(log)).conversations[0]!.messages[0]
    expect(calls).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'a', name: 'f', arguments: { x: 1 }, rawArguments: '"{\\"x\\":1}"' },
        { id: 'b', name: 'g', arguments: { y: 2 }, rawArguments: '{"y":2}' },
        { id: 'call_0_2', name: 'h', arguments: {}, rawArguments: '' },
      ],
    })
  })

  it('hands a Toolstep session file back untouched', () => {
    const session = { format: 'toolstep.session', version: 1, workspace: {}, events: [] }
    const result = imported(JSON.stringify(session))
    expect(result).toEqual({ ok: true, format: 'toolstep-session', conversations: [], session })
  })

  it('honours a forced format', () => {
    expect(imported(JSON.stringify(messages), { format: 'openai-messages' }).conversations).toHaveLength(1)
    expect(failure(JSON.stringify(messages), { format: 'toolstep-session' })).toMatch(/^Not a Toolstep session file/)
    expect(failure(JSON.stringify(messages), { format: 'openai-conversations' })).toBe(
      'The file does not look like list of OpenAI Chat Completions conversations (openai-conversations): it looks like OpenAI Chat Completions conversation (openai-messages): an OpenAI Chat Completions messages array (5 messages). Use that format, or auto.',
    )
  })
})

describe('importLog: broken files', () => {
  it('reports invalid JSON and empty files', () => {
    expect(failure('')).toBe('The file is empty.')
    expect(failure('[{"role": "user",')).toMatch(/^Not valid JSON: /)
  })

  it('names the path of a bad role', () => {
    const log = [{ task_id: 1, traj: [{ role: 'user', content: 'hi' }] }, { task_id: 2, traj: [{ role: 'user', content: 'hi' }, { role: 'robot', content: 'x' }] }]
    expect(failure(JSON.stringify(log))).toBe(
      'Recognised a list of 2 conversations (records with "traj"), but [1].traj[1].role: expected one of "system", "developer", "user", "assistant", "tool", got role "robot".',
    )
  })

  it('names the path of a bad tool call', () => {
    const log = { messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'a', function: { name: 7, arguments: '{}' } }] }] }
    expect(failure(JSON.stringify(log))).toBe(
      'Recognised an OpenAI Chat Completions request (an object with "messages"), but messages[0].tool_calls[0].function.name: expected a string, got number.',
    )
  })

  it('names the path of a tool message without an id, and of bad content', () => {
    expect(failure(JSON.stringify([{ role: 'tool', content: 'x' }]))).toContain('but [0].tool_call_id: a tool message needs a string "tool_call_id", got undefined')
    expect(failure(JSON.stringify([{ role: 'user', content: 5 }]))).toContain('but [0].content: expected a string, null or an array of content parts, got number')
    expect(failure(JSON.stringify([{ traj: 'nope' }]))).toBe('Recognised a list of 1 conversation (records with "traj"), but [0].traj: expected an array of messages, got string.')
  })

  it('says what it saw when nothing is recognised', () => {
    expect(failure('{"foo": 1, "bar": 2}')).toEqual(
      expect.stringMatching(/^Not a recognised log: the file is an object with keys "foo", "bar"; expected an OpenAI Chat Completions log .*, or a Toolstep session file\.$/),
    )
    expect(failure('[]')).toBe('Not a recognised log: the file is an empty array.')
    expect(failure('[{"id": 1}]')).toMatch(/^Not a recognised log: \[0\] is an object with keys "id"/)
    expect(failure('42')).toMatch(/^Not a recognised log: the file is a JSON number/)
  })
})

describe('importLog: never throws', () => {
  const odd = [
    'null',
    '"text"',
    '[null]',
    '[[1]]',
    '\uFEFF[]',
    '[{"role":"assistant","tool_calls":[null]}]',
    '[{"role":"assistant","tool_calls":{"id":"a"}}]',
    '[{"role":"assistant","tool_calls":[{"function":{"name":"x","arguments":5}}]}]',
    '{"messages":[{"role":"tool","tool_call_id":1}]}',
    '[{"traj":[{"role":"user","content":{"a":1}}]}]',
    '[{"__proto__":{"polluted":true},"messages":[]}]',
    '{"messages":[],"tools":"nope"}',
    '[{"messages":[{"role":"user","content":[1]}]}]',
    '['.repeat(100000),
    '{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"gen_ai.input.messages","value":{"stringValue":"[{"}}]}]}]}]}',
    '[{"name":"x","attributes":{"llm.input_messages.0.message.role":"user","llm.input_messages.0.message.tool_calls":5}}]',
    '{"observations":[{"type":"GENERATION","traceId":"t","input":{"messages":7},"output":null}]}',
    '{"steps":[{"toolCalls":[{"toolCallId":1}]}]}',
    '{"input":[{"type":"function_call"}],"output":[]}',
    '{"system":[1],"messages":[{"role":"user","content":[{"type":"tool_result"}]}]}',
    'data: {"object":"chat.completion.chunk","choices":[{"delta":{"tool_calls":[{"index":9}]}}]}\ndata: [DONE]',
    '{"a.b.0":1,"a.b":{"c":2}}\n{"x":1}',
  ]
  it.each(odd)('returns a result for %#', (text) => {
    for (const format of ['auto', ...LOG_FORMATS] as const) {
      const result = importLog(text, { format })
      expect(typeof result.ok).toBe('boolean')
      if (!result.ok) expect(result.error.length).toBeGreaterThan(0)
    }
    expect(typeof importOpenAITools(text).ok).toBe('boolean')
  })

  it('keeps a "__proto__" field as data', () => {
    const result = imported('[{"__proto__":null,"task_id":1,"messages":[]}]')
    expect(Object.getPrototypeOf(result.conversations[0]!.meta)).toBe(Object.prototype)
    expect(Object.hasOwn(result.conversations[0]!.meta, '__proto__')).toBe(true)
  })
})

describe('importOpenAITools', () => {
  it('reads the 14 tau-bench airline tools', () => {
    const result = importOpenAITools(fixture('tau-bench-airline-tools.json'))
    if (!result.ok) throw new Error(result.error)
    expect(result.tools).toHaveLength(14)
    expect(result.tools[0]).toMatchObject({ name: 'book_reservation', description: 'Book a reservation.' })
    expect(result.tools[0]!.inputSchema['required']).toContain('insurance')
  })

  it('accepts Responses, Anthropic and Toolstep shapes, and a {tools} wrapper', () => {
    const schema = { type: 'object', properties: {} }
    const result = importOpenAITools(
      JSON.stringify({ tools: [{ type: 'function', name: 'a', parameters: schema }, { name: 'b', description: 'B', input_schema: schema }, { name: 'c', description: '', inputSchema: schema }, { type: 'function', function: { name: 'd' } }] }),
    )
    expect(result).toEqual({
      ok: true,
      tools: [
        { name: 'a', description: '', inputSchema: schema },
        { name: 'b', description: 'B', inputSchema: schema },
        { name: 'c', description: '', inputSchema: schema },
        { name: 'd', description: '', inputSchema: schema },
      ],
    })
  })

  it('names the path of a bad definition', () => {
    expect(importOpenAITools('[{"type": "function", "function": {"description": "x"}}]')).toMatchObject({
      ok: false,
      error: 'Not a usable tools file: [0].function.name: expected a tool name, got undefined.',
    })
    expect(importOpenAITools('{"tools": [{"name": "a", "parameters": "object"}]}')).toMatchObject({
      ok: false,
      error: 'Not a usable tools file: tools[0].parameters: expected a JSON Schema object, got string.',
    })
    expect(importOpenAITools('nope')).toMatchObject({ ok: false, error: expect.stringMatching(/^Not valid JSON/) })
  })
})
