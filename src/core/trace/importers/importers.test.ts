import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importLog, type ImportOptions } from '../import-log'
import { FIXTURES, QUESTION, weather, WEATHER_TOOL } from './fixture-expectations'
import { LOG_FORMATS } from './types'

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../__fixtures__/${name}`, import.meta.url)), 'utf8')

function imported(text: string, options?: ImportOptions) {
  const result = importLog(text, options)
  if (!result.ok) throw new Error(result.error)
  return result
}

function failure(text: string, options?: ImportOptions): string {
  const result = importLog(text, options)
  if (result.ok) throw new Error(`expected the import to fail, got ${result.format}`)
  return result.error
}

describe('importers: one fixture per dialect', () => {
  it.each(FIXTURES)('$file is detected as $format and holds the weather conversation', ({ file, format, messages, finishReasons, tools }) => {
    const result = imported(fixture(file))
    expect(result.format).toBe(format)
    expect(result.conversations).toHaveLength(1)
    const conversation = result.conversations[0]!
    expect(conversation.messages).toEqual(messages)
    const reasons = Object.fromEntries(Object.entries(conversation.messageMeta ?? {}).map(([index, meta]) => [index, meta.finishReason]))
    expect(reasons).toEqual(Object.fromEntries(Object.entries(finishReasons).map(([index, reason]) => [index, reason])))
    if (tools) expect(conversation.tools).toEqual([WEATHER_TOOL])
  })

  it('joins gateway JSONL lines of one conversation and keeps an interleaved one apart', () => {
    const result = imported(fixture('openai-gateway.jsonl'))
    expect(result.format).toBe('openai-jsonl')
    expect(result.conversations.map((conversation) => [conversation.id, conversation.label, conversation.path, conversation.messages.length])).toEqual([
      ['chatcmpl-A1', 'chatcmpl-A1 · 2 calls', 'line 1: request.messages', 6],
      ['chatcmpl-B1', 'chatcmpl-B1', 'line 2: request.messages', 3],
    ])
    expect(result.conversations[0]!.messages).toEqual(weather())
    expect(result.conversations[0]!.messageMeta).toEqual({ 2: { finishReason: 'tool_calls', offeredTools: ['get_weather'] }, 5: { finishReason: 'stop', offeredTools: ['get_weather'] } })
  })

  it('reassembles streamed tool call fragments by index', () => {
    const result = imported(fixture('openai-stream.sse'))
    expect(result.format).toBe('openai-stream')
    expect(result.conversations[0]!.messages).toEqual([weather({ raw: ['{"city": "Paris"}', '{"city": "Tokyo"}'] })[2]])
    expect(result.conversations[0]!.messageMeta).toEqual({ 0: { finishReason: 'tool_calls' } })
    // The same chunks as a JSON array and as JSONL.
    const chunks = fixture('openai-stream.sse')
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => line.slice(6))
    expect(imported(`[${chunks.join(',')}]`).conversations[0]!.messages).toEqual(result.conversations[0]!.messages)
    expect(imported(chunks.join('\n')).conversations[0]!.messages).toEqual(result.conversations[0]!.messages)
  })
})

describe('importers: other shapes of each dialect', () => {
  it('OpenAI: a lone response, a batch result line, a pair with a streamed response, a list of pairs', () => {
    const completion = { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'length' }] }
    expect(imported(JSON.stringify(completion))).toMatchObject({ format: 'openai-messages', conversations: [{ id: 'chatcmpl-1', messages: [{ role: 'assistant', content: 'Hi' }], messageMeta: { 0: { finishReason: 'length' } } }] })
    const batch = [
      { custom_id: 'req-1', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'a' }] } },
      { custom_id: 'req-2', response: { status_code: 200, body: completion } },
    ]
    expect(imported(batch.map((line) => JSON.stringify(line)).join('\n')).conversations.map((conversation) => conversation.id)).toEqual(['req-1', 'req-2'])
    const chunks = fixture('openai-stream.sse')
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as unknown)
    const pair = { request: { messages: [{ role: 'user', content: QUESTION }] }, response: chunks }
    expect(imported(JSON.stringify(pair)).conversations[0]!.messages.map((message) => message.role)).toEqual(['user', 'assistant'])
    const gateway = fixture('openai-gateway.jsonl').trim().split('\n').map((line) => JSON.parse(line) as unknown)
    const list = imported(JSON.stringify(gateway))
    expect(list.format).toBe('openai-conversations')
    expect(list.conversations.map((conversation) => conversation.messages.length)).toEqual([6, 3])
  })

  it('OpenAI JSONL: a request extended twice (a retry) is not joined', () => {
    const first = { request: { messages: [{ role: 'user', content: 'hi' }] }, response: { choices: [{ message: { role: 'assistant', content: 'hello' } }] } }
    const next = (text: string) => ({ request: { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }, { role: 'user', content: text }] } })
    const lines = [first, next('a'), next('b')].map((line) => JSON.stringify(line)).join('\n')
    expect(imported(lines).conversations.map((conversation) => conversation.messages.length)).toEqual([2, 3, 3])
    const joined = [first, next('a')].map((line) => JSON.stringify(line)).join('\n')
    expect(imported(joined).conversations.map((conversation) => conversation.messages.length)).toEqual([3])
  })

  it('Anthropic: is_error, text beside results, a bare messages array, a lone response, max_tokens', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: '…', signature: 'x' }, { type: 'tool_use', id: 't1', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'boom', is_error: true }, { type: 'text', text: 'and then?' }] },
    ]
    const result = imported(JSON.stringify(messages))
    expect(result.format).toBe('anthropic-messages')
    expect(result.conversations[0]!.messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 't1', name: 'f', arguments: {} }] },
      { role: 'tool', tool_call_id: 't1', name: 'f', content: 'boom', isError: true },
      { role: 'user', content: 'and then?' },
    ])
    const response = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'f', input: { a: 1 } }], stop_reason: 'max_tokens' }
    expect(imported(JSON.stringify(response))).toMatchObject({ format: 'anthropic-messages', conversations: [{ id: 'msg_1', messageMeta: { 0: { finishReason: 'max_tokens' } } }] })
    expect(imported(JSON.stringify({ system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] })).format).toBe('anthropic-messages')
  })

  it('Responses: a bare item array, and an incomplete response', () => {
    const items = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"a":' },
    ]
    const result = imported(JSON.stringify(items))
    expect(result.format).toBe('openai-responses')
    expect(result.conversations[0]!.messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'f', arguments: {}, rawArguments: '{"a":' }] },
    ])
    const incomplete = { input: 'go', output: items.slice(2), status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }
    expect(imported(JSON.stringify(incomplete)).conversations[0]!.messageMeta).toEqual({ 1: { finishReason: 'max_output_tokens', offeredTools: [] } })
  })

  it('Vercel AI SDK: model messages with typed outputs and v4 args/result', () => {
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: { a: 1 } }, { type: 'tool-call', toolCallId: 'c2', toolName: 'g', args: { b: 2 } }] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'f', output: { type: 'json', value: { ok: true } } },
          { type: 'tool-result', toolCallId: 'c2', toolName: 'g', output: { type: 'error-text', value: 'nope' } },
        ],
      },
    ]
    const result = imported(JSON.stringify({ messages }))
    expect(result.format).toBe('vercel-ai')
    expect(result.conversations[0]!.messages.slice(1)).toEqual([
      { role: 'assistant', content: 'ok', tool_calls: [{ id: 'c1', name: 'f', arguments: { a: 1 } }, { id: 'c2', name: 'g', arguments: { b: 2 } }] },
      { role: 'tool', tool_call_id: 'c1', name: 'f', content: '{"ok":true}' },
      { role: 'tool', tool_call_id: 'c2', name: 'g', content: 'nope', isError: true },
    ])
    const legacy = [{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'f', result: { x: 1 }, isError: true }] }]
    expect(imported(JSON.stringify(legacy)).conversations[0]!.messages).toEqual([{ role: 'tool', tool_call_id: 'c1', name: 'f', content: '{"x":1}', isError: true }])
  })

  it('OTel: flat span lists and JSONL of OTLP files read like OTLP JSON', () => {
    const otlp = JSON.parse(fixture('otel-genai.json')) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] }
    const spans = otlp.resourceSpans[0]!.scopeSpans[0]!.spans.map((span) => ({
      ...span,
      attributes: Object.fromEntries(span.attributes.map((attribute) => [attribute.key, attribute.value.stringValue ?? null])),
    }))
    expect(imported(JSON.stringify(spans)).conversations[0]!.messages).toEqual(weather({ raw: null }))
    const lines = [fixture('otel-genai.json'), fixture('otel-genai.json')].map((text) => JSON.stringify(JSON.parse(text))).join('\n')
    // The same trace twice makes every join ambiguous, so each of the four calls stays its own conversation.
    expect(imported(lines).conversations).toHaveLength(4)
  })

  it('Langfuse: a list of observations', () => {
    const trace = JSON.parse(fixture('langfuse-trace.json')) as { observations: unknown[] }
    const result = imported(JSON.stringify({ data: trace.observations }))
    expect(result.format).toBe('langfuse')
    expect(result.conversations[0]!.messages).toEqual(weather())
  })
})

describe('importers: forcing and errors', () => {
  it('never throws when any fixture is forced through any importer', () => {
    for (const file of [...FIXTURES.map((entry) => entry.file), 'openai-gateway.jsonl', 'openai-stream.sse']) {
      for (const format of LOG_FORMATS) {
        const result = importLog(fixture(file), { format })
        expect(typeof result.ok, `${file} as ${format}`).toBe('boolean')
      }
    }
  })

  it('forces a format, and refuses one that another importer recognises (it would drop what it does not know)', () => {
    expect(imported(fixture('openai-pair.json'), { format: 'openai-messages' }).conversations).toHaveLength(1)
    expect(failure(fixture('openai-pair.json'), { format: 'anthropic-messages' })).toMatch(/^The file does not look like Anthropic Messages \(anthropic-messages\): it looks like OpenAI Chat Completions/)
    expect(failure(fixture('anthropic-pair.json'), { format: 'otel-genai' })).toMatch(/^The file does not look like OpenTelemetry GenAI spans \(otel-genai\): it looks like Anthropic Messages/)
    // Read as OpenAI, an Anthropic log would lose its tool_use blocks without a word.
    expect(failure(fixture('anthropic-pair.json'), { format: 'openai-messages' })).toMatch(/looks like Anthropic Messages \(anthropic-messages\)/)
  })

  it('names the JSONL line and path where reading stopped', () => {
    const lines = [{ messages: [{ role: 'user', content: 'a' }] }, { messages: [{ role: 'user', content: 'b' }, { role: 'robot' }] }].map((line) => JSON.stringify(line)).join('\n')
    expect(failure(lines)).toBe(
      'Recognised an OpenAI Chat Completions JSONL log (2 lines of requests), but line 2: messages[1].role: expected one of "system", "developer", "user", "assistant", "tool", got role "robot".',
    )
    expect(failure('{"messages": []}\n{"messages": [}')).toMatch(/^Not valid JSON lines: line 2: /)
  })

  it('names the path inside a span attribute', () => {
    const span = { traceId: 't', spanId: 's', name: 'chat', attributes: { 'gen_ai.input.messages': '[{"role":"user","parts":[{"type":"tool_call"}]}]' } }
    expect(failure(JSON.stringify([span]))).toBe(
      'Recognised OpenTelemetry GenAI spans with gen_ai.input.messages (a span list; 1 model-call span among the first 1 span), but [0].attributes["gen_ai.input.messages"][0].parts[0].name: expected a string, got undefined.',
    )
  })
})
