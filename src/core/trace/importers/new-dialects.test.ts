/**
 * The dialects added for recorded traffic and newer SDKs, each written as its documentation
 * describes it (not taken from the captures): AI SDK UI messages (v5 parts, v4
 * toolInvocations), Responses input-item lists and previous_response_id chains, Anthropic and
 * Responses streams, Chat streams cut at the token limit, older OTel GenAI events, Traceloop
 * attributes and a Langfuse trace without startTime.
 */
import { describe, expect, it } from 'vitest'
import type { Message } from '../../messages'
import { importLog } from '../import-log'
import { replayEvents } from '../replay-events'
import { summarize } from '../summarize'
import { QUESTION, weather } from './fixture-expectations'

function imported(text: string) {
  const result = importLog(text)
  if (!result.ok) throw new Error(result.error)
  return result
}

const json = (value: unknown) => JSON.stringify(value)
const lines = (values: unknown[]) => values.map((value) => JSON.stringify(value)).join('\n')
const sse = (events: { event?: string; data: unknown }[]) => events.map(({ event, data }) => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join('')
const codes = (conversations: Parameters<typeof summarize>[0]) => summarize(conversations).anomalies.map((anomaly) => `${anomaly.message}:${anomaly.code}`)

describe('AI SDK UI messages', () => {
  const v5 = [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: QUESTION }] },
    {
      id: 'a1',
      role: 'assistant',
      metadata: { model: 'gpt-4o' },
      parts: [
        { type: 'step-start' },
        { type: 'text', text: 'Let me check.', state: 'done' },
        { type: 'tool-getWeather', toolCallId: 'call_1', state: 'output-available', input: { city: 'Paris' }, output: { temperature: 18, condition: 'cloudy' } },
        { type: 'dynamic-tool', toolName: 'lookupWeather', toolCallId: 'call_2', state: 'output-error', input: { city: 'Tokyo' }, errorText: 'upstream timeout' },
        { type: 'data-weather-card', id: 'w1', data: { city: 'Paris' } },
        { type: 'step-start' },
        { type: 'reasoning', text: 'Tokyo failed; answer for Paris.', state: 'done' },
        { type: 'source-url', sourceId: 's1', url: 'https://example.com/weather' },
        { type: 'text', text: 'Paris is 18°C and cloudy; Tokyo is unavailable.', state: 'done' },
      ],
    },
    { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And Rome?' }] },
    { id: 'a2', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'tool-getWeather', toolCallId: 'call_3', state: 'input-streaming', input: { ci: '' } }] },
  ]

  it('v5 parts: tool-NAME and dynamic-tool with their states, step-start as turn boundaries', () => {
    const result = imported(json(v5))
    expect(result.format).toBe('vercel-ai')
    const messages: Message[] = [
      { role: 'user', content: QUESTION },
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          { id: 'call_1', name: 'getWeather', arguments: { city: 'Paris' } },
          { id: 'call_2', name: 'lookupWeather', arguments: { city: 'Tokyo' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', name: 'getWeather', content: '{"temperature":18,"condition":"cloudy"}' },
      { role: 'tool', tool_call_id: 'call_2', name: 'lookupWeather', content: 'upstream timeout', isError: true },
      { role: 'assistant', content: 'Paris is 18°C and cloudy; Tokyo is unavailable.' },
      { role: 'user', content: 'And Rome?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_3', name: 'getWeather', arguments: { ci: '' } }] },
    ]
    expect(result.conversations[0]!.messages).toEqual(messages)
    expect(codes(result.conversations)).toEqual(['6:unanswered_tool_call'])
  })

  it('v5: a persisted chat or a useChat request body, and JSONL of chats', () => {
    const chat = imported(json({ id: 'chat_42', messages: v5, trigger: 'submit-message' }))
    expect(chat.format).toBe('vercel-ai')
    expect(chat.conversations[0]!.id).toBe('chat_42')
    expect(chat.conversations[0]!.messages).toHaveLength(7)
    const many = imported(lines([{ id: 'c1', messages: v5 }, { id: 'c2', messages: v5.slice(0, 2) }]))
    expect(many.conversations.map((conversation) => conversation.messages.length)).toEqual([7, 5])
  })

  it('v5 without step-start: text after a call’s result starts the next turn; denied calls are error results', () => {
    const result = imported(
      json([
        { id: 'u', role: 'user', parts: [{ type: 'text', text: 'Delete it.' }] },
        {
          id: 'a',
          role: 'assistant',
          parts: [
            { type: 'tool-deleteFile', toolCallId: 'c1', state: 'output-denied', input: { path: '/tmp/x' }, approval: { id: 'ap1', approved: false, reason: 'not allowed' } },
            { type: 'text', text: 'I did not delete it.' },
          ],
        },
      ]),
    )
    expect(result.conversations[0]!.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'deleteFile', arguments: { path: '/tmp/x' } }] },
      { role: 'tool', tool_call_id: 'c1', name: 'deleteFile', content: 'not allowed', isError: true },
      { role: 'assistant', content: 'I did not delete it.' },
    ])
  })

  const invocation = { state: 'result', step: 0, toolCallId: 'call_1', toolName: 'getWeather', args: { city: 'Paris' }, result: { temperature: 18 } }
  const v4Expected: Message[] = [
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', name: 'getWeather', arguments: { city: 'Paris' } }] },
    { role: 'tool', tool_call_id: 'call_1', name: 'getWeather', content: '{"temperature":18}' },
    { role: 'assistant', content: 'Paris is 18°C.' },
  ]

  it('v4: toolInvocations beside tool-invocation parts count each call once', () => {
    const result = imported(
      json([
        { id: '1', role: 'user', content: 'Weather in Paris?', parts: [{ type: 'text', text: 'Weather in Paris?' }] },
        {
          id: '2',
          role: 'assistant',
          content: 'Paris is 18°C.',
          toolInvocations: [invocation],
          parts: [{ type: 'step-start' }, { type: 'tool-invocation', toolInvocation: invocation }, { type: 'step-start' }, { type: 'text', text: 'Paris is 18°C.' }],
        },
      ]),
    )
    expect(result.format).toBe('vercel-ai')
    expect(result.conversations[0]!.messages).toEqual(v4Expected)
    expect(summarize(result.conversations)).toMatchObject({ toolCalls: 1, toolResults: 1, anomalies: [] })
  })

  it('v4: toolInvocations alone, by step; a partial-call waits for its result', () => {
    const alone = imported(json([{ id: '1', role: 'user', content: 'Weather in Paris?' }, { id: '2', role: 'assistant', content: 'Paris is 18°C.', toolInvocations: [invocation] }]))
    expect(alone.conversations[0]!.messages).toEqual(v4Expected)
    const partial = imported(json([{ id: '1', role: 'user', content: 'Go' }, { id: '2', role: 'assistant', content: '', toolInvocations: [{ state: 'partial-call', toolCallId: 'c', toolName: 'f', args: { a: 1 } }] }]))
    expect(codes(partial.conversations)).toEqual(['1:unanswered_tool_call'])
  })
})

describe('OpenAI Responses: input-item lists and stored-state chains', () => {
  it('reads the input-items list object, newest first as the API lists it by default', () => {
    const list = {
      object: 'list',
      data: [
        { id: 'fco_1', type: 'function_call_output', call_id: 'call_1', output: '18°C, cloudy' },
        { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { id: 'msg_1', type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
      ],
      first_id: 'fco_1',
      last_id: 'msg_1',
      has_more: false,
    }
    const result = imported(json(list))
    expect(result.format).toBe('openai-responses')
    expect(result.conversations[0]!.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' }] },
      { role: 'tool', tool_call_id: 'call_1', name: 'get_weather', content: '18°C, cloudy' },
    ])
    const ascending = imported(json({ ...list, data: [...list.data].reverse() }))
    expect(ascending.conversations[0]!.messages).toEqual(result.conversations[0]!.messages)
  })

  it('joins a gateway log chained by previous_response_id into one conversation, apart from an interleaved one', () => {
    const tools = [{ type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: true }]
    const call = (id: string, city: string) => ({ type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, name: 'get_weather', arguments: json({ city }), status: 'completed' })
    const text = (id: string, value: string) => ({ type: 'message', id, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: value, annotations: [] }] })
    const log = lines([
      { ts: '2025-06-01T10:00:00Z', request: { model: 'gpt-4.1', instructions: 'You are a weather bot.', input: 'Weather in Paris?', tools, store: true }, response: { id: 'resp_1', object: 'response', status: 'completed', output: [call('1', 'Paris')] } },
      { ts: '2025-06-01T10:00:01Z', request: { model: 'gpt-4.1', input: 'Hi', store: true }, response: { id: 'resp_x', object: 'response', status: 'completed', output: [text('msg_x', 'Hello!')] } },
      { ts: '2025-06-01T10:00:02Z', request: { model: 'gpt-4.1', previous_response_id: 'resp_1', input: [{ type: 'function_call_output', call_id: 'call_1', output: '18°C' }], tools, store: true }, response: { id: 'resp_2', previous_response_id: 'resp_1', status: 'completed', output: [text('msg_2', 'Paris is 18°C.')] } },
      { ts: '2025-06-01T10:00:03Z', request: { model: 'gpt-4.1', instructions: 'You are a weather bot.', previous_response_id: 'resp_2', input: [{ role: 'user', content: 'And Rome?' }], tools, store: true }, response: { id: 'resp_3', status: 'completed', output: [call('3', 'Rome')] } },
    ])
    const result = imported(log)
    expect(result.format).toBe('openai-responses')
    expect(result.conversations.map((conversation) => conversation.messages.map((message) => message.role))).toEqual([
      ['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant'],
      ['user', 'assistant'],
    ])
    expect(result.conversations[0]!.tools?.map((tool) => tool.name)).toEqual(['get_weather'])
    expect(codes(result.conversations)).toEqual(['6:unanswered_tool_call'])
  })
})

describe('streams', () => {
  it('Anthropic SSE: thinking, a tool_use cut by max_tokens is a truncated call', () => {
    const events = sse([
      { event: 'message_start', data: { type: 'message_start', message: { id: 'msg_01Cut', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 410, output_tokens: 1 } } } },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Book CDG to NRT.' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      { event: 'ping', data: { type: 'ping' } },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_01Book', name: 'book_flight', input: {} } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"from": "CDG", "to' } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 1 } },
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: 64 } } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ])
    const result = imported(events)
    expect(result.format).toBe('anthropic-stream')
    expect(result.conversations[0]!.messages).toEqual([{ role: 'assistant', content: null, tool_calls: [{ id: 'toolu_01Book', name: 'book_flight', arguments: {}, rawArguments: '{"from": "CDG", "to' }] }])
    expect(codes(result.conversations)).toEqual(['0:truncated_call', '0:unanswered_tool_call'])
  })

  it('Anthropic SSE: an error event ends the stream with the provider’s error', () => {
    const events = sse([
      { event: 'message_start', data: { type: 'message_start', message: { id: 'msg_01Err', type: 'message', role: 'assistant', content: [], stop_reason: null } } },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me' } } },
      { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
    ])
    const result = imported(events)
    expect(result.conversations[0]!.messages).toEqual([{ role: 'assistant', content: 'Let me' }])
    expect(codes(result.conversations)).toEqual(['0:provider_error'])
    expect(replayEvents(result.conversations[0]!).at(-1)).toMatchObject({ reason: 'error', detail: 'provider error: overloaded_error: Overloaded' })
  })

  it('Responses SSE: text and refusal deltas; a function call cut by max_output_tokens', () => {
    const created = { id: 'resp_9', object: 'response', status: 'in_progress', output: [] }
    const events = sse([
      { event: 'response.created', data: { type: 'response.created', sequence_number: 0, response: created } },
      { event: 'response.output_item.added', data: { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] } } },
      { event: 'response.content_part.added', data: { type: 'response.content_part.added', sequence_number: 2, item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } } },
      { event: 'response.output_text.delta', data: { type: 'response.output_text.delta', sequence_number: 3, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Booking ', obfuscation: 'x1' } },
      { event: 'response.output_text.delta', data: { type: 'response.output_text.delta', sequence_number: 4, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'now.' } },
      { event: 'response.output_item.added', data: { type: 'response.output_item.added', sequence_number: 5, output_index: 1, item: { id: 'fc_1', type: 'function_call', status: 'in_progress', call_id: 'call_b', name: 'book_flight', arguments: '' } } },
      { event: 'response.function_call_arguments.delta', data: { type: 'response.function_call_arguments.delta', sequence_number: 6, item_id: 'fc_1', output_index: 1, delta: '{"from":"CDG",' } },
      { event: 'response.function_call_arguments.delta', data: { type: 'response.function_call_arguments.delta', sequence_number: 7, item_id: 'fc_1', output_index: 1, delta: '"to":"NR' } },
      { event: 'response.incomplete', data: { type: 'response.incomplete', sequence_number: 8, response: { ...created, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [] } } },
    ])
    const result = imported(events)
    expect(result.format).toBe('openai-responses-stream')
    expect(result.conversations[0]!.messages).toEqual([{ role: 'assistant', content: 'Booking now.', tool_calls: [{ id: 'call_b', name: 'book_flight', arguments: {}, rawArguments: '{"from":"CDG","to":"NR' }] }])
    expect(result.conversations[0]!.messageMeta?.[0]?.finishReason).toBe('max_output_tokens')
    expect(codes(result.conversations)).toEqual(['0:truncated_call', '0:unanswered_tool_call'])
    const refusal = sse([
      { event: 'response.created', data: { type: 'response.created', response: created } },
      { event: 'response.output_item.added', data: { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_r', type: 'message', role: 'assistant', content: [] } } },
      { event: 'response.content_part.added', data: { type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'refusal', refusal: '' } } },
      { event: 'response.refusal.delta', data: { type: 'response.refusal.delta', output_index: 0, content_index: 0, delta: "I can't help with that." } },
    ])
    expect(codes(imported(refusal).conversations)).toEqual(['0:refusal'])
  })

  it('Chat SSE: finish_reason length inside a call is truncated_call; a length stop after a whole call is not', () => {
    const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'chatcmpl-L', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] })
    const opened = chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_L', type: 'function', function: { name: 'search', arguments: '' } }] })
    const cut = `${[opened, chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q": "fli' } }] }), chunk({}, 'length')].map((value) => `data: ${JSON.stringify(value)}\n\n`).join('')}data: [DONE]\n\n`
    expect(codes(imported(cut).conversations)).toEqual(['0:truncated_call', '0:unanswered_tool_call'])
    const whole = `${[opened, chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q": "flights"}' } }] }), chunk({}, 'length')].map((value) => `data: ${JSON.stringify(value)}\n\n`).join('')}data: [DONE]\n\n`
    expect(codes(imported(whole).conversations)).toEqual(['0:unanswered_tool_call'])
    const error = `data: ${JSON.stringify(chunk({ role: 'assistant', content: 'Hel' }))}\n\ndata: {"error": {"message": "The server had an error while processing your request.", "type": "server_error"}}\n\n`
    expect(codes(imported(error).conversations)).toEqual(['0:provider_error'])
  })
})

describe('OpenTelemetry: older GenAI events and Traceloop attributes', () => {
  const str = (value: string) => ({ stringValue: value })
  const kv = (entries: Record<string, unknown>): unknown => ({
    kvlistValue: { values: Object.entries(entries).map(([key, value]) => ({ key, value: typeof value === 'string' ? str(value) : value })) },
  })
  const attrs = (entries: Record<string, unknown>) => Object.entries(entries).map(([key, value]) => ({ key, value: typeof value === 'string' ? str(value) : value }))
  const toolCall = (id: string, city: string) => kv({ id, type: 'function', function: kv({ name: 'get_weather', arguments: json({ city }) }) })

  it('span events gen_ai.system/user/assistant/tool.message and gen_ai.choice, joined across spans', () => {
    const span = (spanId: string, start: string, events: unknown[], finish: string) => ({
      traceId: '5b8aa5a2d2c872e8321cf37308d69df2',
      spanId,
      name: 'chat gpt-4o-mini',
      kind: 3,
      startTimeUnixNano: start,
      attributes: attrs({ 'gen_ai.operation.name': 'chat', 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.response.finish_reasons': { arrayValue: { values: [str(finish)] } } }),
      events,
    })
    const event = (name: string, entries: Record<string, unknown>) => ({ timeUnixNano: '1', name, attributes: attrs({ 'gen_ai.system': 'openai', ...entries }) })
    const calls = { arrayValue: { values: [toolCall('call_Pa1', 'Paris'), toolCall('call_To2', 'Tokyo')] } }
    const otlp = {
      resourceSpans: [
        {
          resource: { attributes: attrs({ 'service.name': 'travel-agent' }) },
          scopeSpans: [
            {
              scope: { name: 'opentelemetry.instrumentation.openai_v2' },
              spans: [
                span('0000000000000002', '1731456001000000000', [
                  event('gen_ai.system.message', { content: 'You are a travel assistant.' }),
                  event('gen_ai.user.message', { content: QUESTION }),
                  // Some exporters keep structured event attributes as JSON text.
                  event('gen_ai.assistant.message', { tool_calls: json([{ id: 'call_Pa1', type: 'function', function: { name: 'get_weather', arguments: { city: 'Paris' } } }, { id: 'call_To2', type: 'function', function: { name: 'get_weather', arguments: { city: 'Tokyo' } } }]) }),
                  event('gen_ai.tool.message', { id: 'call_Pa1', content: '18°C, cloudy' }),
                  event('gen_ai.tool.message', { id: 'call_To2', content: '24°C, sunny' }),
                  event('gen_ai.choice', { index: { intValue: '0' }, finish_reason: 'stop', message: kv({ role: 'assistant', content: 'Paris is 18°C and cloudy; Tokyo is 24°C and sunny.' }) }),
                ], 'stop'),
                span('0000000000000001', '1731456000000000000', [
                  event('gen_ai.system.message', { content: 'You are a travel assistant.' }),
                  event('gen_ai.user.message', { content: QUESTION }),
                  event('gen_ai.choice', { index: { intValue: '0' }, finish_reason: 'tool_calls', message: kv({ tool_calls: calls }) }),
                ], 'tool_calls'),
              ],
            },
          ],
        },
      ],
    }
    const result = imported(json(otlp))
    expect(result.format).toBe('otel-genai')
    expect(result.conversations).toHaveLength(1)
    expect(result.conversations[0]!.messages).toEqual(weather())
    expect(result.conversations[0]!.messageMeta).toEqual({ 2: { finishReason: 'tool_calls' }, 5: { finishReason: 'stop' } })
  })

  it('the same events sent as OTLP log records (resourceLogs), and v1.26 gen_ai.content.prompt/completion', () => {
    const record = (time: string, name: string, body: Record<string, unknown>) => ({ timeUnixNano: time, traceId: 'abc', spanId: 'def', eventName: name, attributes: attrs({ 'gen_ai.system': 'openai' }), body: kv(body) })
    const logs = {
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: [
                record('2', 'gen_ai.user.message', { content: QUESTION }),
                record('1', 'gen_ai.system.message', { content: 'You are a travel assistant.' }),
                record('3', 'gen_ai.choice', { index: { intValue: '0' }, finish_reason: 'tool_calls', message: kv({ tool_calls: { arrayValue: { values: [toolCall('call_Pa1', 'Paris')] } } }) }),
              ],
            },
          ],
        },
      ],
    }
    const fromLogs = imported(json(logs))
    expect(fromLogs.format).toBe('otel-genai')
    expect(fromLogs.conversations[0]!.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant'])
    const v126 = [
      {
        name: 'chat gpt-4',
        context: { trace_id: '0x1', span_id: '0x2' },
        start_time: '2024-08-01T10:00:00Z',
        attributes: { 'gen_ai.system': 'openai' },
        events: [
          { name: 'gen_ai.content.prompt', timestamp: '2024-08-01T10:00:00Z', attributes: { 'gen_ai.prompt': json([{ role: 'user', content: QUESTION }]) } },
          { name: 'gen_ai.content.completion', timestamp: '2024-08-01T10:00:01Z', attributes: { 'gen_ai.completion': json([{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Sunny.' } }]) } },
        ],
      },
    ]
    const old = imported(json(v126))
    expect(old.conversations[0]!.messages).toEqual([
      { role: 'user', content: QUESTION },
      { role: 'assistant', content: 'Sunny.' },
    ])
  })

  it('Traceloop / OpenLLMetry gen_ai.prompt.N.* and gen_ai.completion.N.tool_calls.M.* attributes, with llm.request.functions', () => {
    const functions = {
      'llm.request.functions.0.name': 'get_weather',
      'llm.request.functions.0.description': 'Current weather for a city.',
      'llm.request.functions.0.parameters': json({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    }
    const first = {
      'llm.request.type': 'chat',
      'gen_ai.system': 'OpenAI',
      'gen_ai.request.model': 'gpt-4o',
      ...functions,
      'gen_ai.prompt.0.role': 'system',
      'gen_ai.prompt.0.content': 'You are a travel assistant.',
      'gen_ai.prompt.1.role': 'user',
      'gen_ai.prompt.1.content': QUESTION,
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.finish_reason': 'tool_calls',
      'gen_ai.completion.0.tool_calls.0.id': 'call_Pa1',
      'gen_ai.completion.0.tool_calls.0.name': 'get_weather',
      'gen_ai.completion.0.tool_calls.0.arguments': '{"city":"Paris"}',
      'gen_ai.completion.0.tool_calls.1.id': 'call_To2',
      'gen_ai.completion.0.tool_calls.1.name': 'get_weather',
      'gen_ai.completion.0.tool_calls.1.arguments': '{"city":"Tokyo"}',
    }
    const second = {
      'llm.request.type': 'chat',
      ...functions,
      'gen_ai.prompt.0.role': 'system',
      'gen_ai.prompt.0.content': 'You are a travel assistant.',
      'gen_ai.prompt.1.role': 'user',
      'gen_ai.prompt.1.content': QUESTION,
      'gen_ai.prompt.2.role': 'assistant',
      'gen_ai.prompt.2.tool_calls.0.id': 'call_Pa1',
      'gen_ai.prompt.2.tool_calls.0.name': 'get_weather',
      'gen_ai.prompt.2.tool_calls.0.arguments': '{"city":"Paris"}',
      'gen_ai.prompt.2.tool_calls.1.id': 'call_To2',
      'gen_ai.prompt.2.tool_calls.1.name': 'get_weather',
      'gen_ai.prompt.2.tool_calls.1.arguments': '{"city":"Tokyo"}',
      'gen_ai.prompt.3.role': 'tool',
      'gen_ai.prompt.3.tool_call_id': 'call_Pa1',
      'gen_ai.prompt.3.content': '18°C, cloudy',
      'gen_ai.prompt.4.role': 'tool',
      'gen_ai.prompt.4.tool_call_id': 'call_To2',
      'gen_ai.prompt.4.content': '24°C, sunny',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.finish_reason': 'stop',
      'gen_ai.completion.0.content': 'Paris is 18°C and cloudy; Tokyo is 24°C and sunny.',
    }
    const spans = [
      { name: 'openai.chat', context: { trace_id: '0xaaa', span_id: '0x01' }, parent_id: null, start_time: '2025-03-01T10:00:00.000000Z', attributes: first },
      { name: 'openai.chat', context: { trace_id: '0xaaa', span_id: '0x02' }, parent_id: null, start_time: '2025-03-01T10:00:02.000000Z', attributes: second },
    ]
    const result = imported(json(spans))
    expect(result.format).toBe('otel-genai')
    expect(result.conversations).toHaveLength(1)
    expect(result.conversations[0]!.messages).toEqual(weather())
    expect(result.conversations[0]!.tools?.map((tool) => tool.name)).toEqual(['get_weather'])
    expect(result.conversations[0]!.messageMeta).toEqual({ 2: { finishReason: 'tool_calls' }, 5: { finishReason: 'stop' } })
  })
})

describe('Langfuse', () => {
  it('a trace whose observations have no startTime is ordered by the next best time field', () => {
    const generation = (id: string, createdAt: string, input: unknown, output: unknown) => ({ id, type: 'GENERATION', name: 'chat', model: 'gpt-4o', createdAt, input, output })
    const history = weather()
    const trace = {
      id: 'trace-no-start',
      name: 'travel',
      observations: [
        // Listed newest first, as some exports do; createdAt puts them back in order.
        generation('g2', '2025-05-01T10:00:02.000Z', history.slice(0, 5).map(openaiWire), { role: 'assistant', content: history[5]!.content }),
        { id: 's1', type: 'SPAN', name: 'get_weather', createdAt: '2025-05-01T10:00:01.000Z', input: { city: 'Paris' }, output: '18°C, cloudy' },
        generation('g1', '2025-05-01T10:00:00.000Z', history.slice(0, 2).map(openaiWire), openaiWire(history[2]!)),
      ],
    }
    const result = imported(json(trace))
    expect(result.format).toBe('langfuse')
    expect(result.conversations).toHaveLength(1)
    expect(result.conversations[0]!.messages).toEqual(weather())
  })
})

/** A canonical message in Chat Completions wire shape. */
function openaiWire(message: Message): unknown {
  if (message.role === 'assistant') return { role: 'assistant', content: message.content, ...(message.tool_calls ? { tool_calls: message.tool_calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.rawArguments ?? JSON.stringify(call.arguments) } })) } : {}) }
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content }
  return message
}
