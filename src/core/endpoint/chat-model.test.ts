import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { capture, captureReply, errorReply, startChatServer, textReply, type ChatServer } from '../../test/chat-server'
import type { ModelRequest } from '../loop/interfaces'
import { createEndpointModel, EndpointError, networkError, type EndpointModelOptions } from './index'
import type { EndpointConfig } from './settings'

const weather = {
  name: 'get_current_weather',
  description: 'Get the current weather in a given location',
  inputSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'], additionalProperties: false },
}

function request(protocol = 'openai'): ModelRequest {
  return {
    messages: [
      { role: 'system', content: "You're a helpful assistant." },
      { role: 'user', content: "What's the weather in Seattle and San Francisco today?" },
    ],
    tools: [weather],
    step: 0,
    protocol,
  }
}

let server: ChatServer
beforeEach(async () => {
  server = await startChatServer()
})
afterEach(async () => {
  await server.close()
})

function model(config: Partial<EndpointConfig> = {}, options: EndpointModelOptions = {}) {
  return createEndpointModel({ baseUrl: server.baseUrl, model: 'gpt-4o-mini', stream: false, ...config }, options)
}

async function failure(promise: Promise<unknown>): Promise<EndpointError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(EndpointError)
  return error as EndpointError
}

describe('endpoint model, non-streamed', () => {
  it('sends tools as JSON Schema with the openai format and returns the parallel tool calls natively', async () => {
    server.enqueue(captureReply('openai-chat-parallel-tools.1.response.json'))
    const output = await model({ temperature: 0.2, headers: { 'x-team': 'tools' } }, { apiKey: 'sk-test' }).respond(request())
    expect(output.kind).toBe('message')
    if (output.kind !== 'message') return
    expect(output.message.content).toBeNull()
    expect(output.message.tool_calls?.map((c) => [c.id, c.function.name, c.function.arguments])).toEqual([
      ['call_JpNb8OiAkbIbHzDggfpdDHpi', 'get_current_weather', '{"location": "Seattle, WA"}'],
      ['call_vaFQc3zK6hHTRZKXRI5Eo2cJ', 'get_current_weather', '{"location": "San Francisco, CA"}'],
    ])
    expect(output.timing.chunks).toBeUndefined()
    const sent = server.requests[0]!
    expect(sent.path).toBe('/v1/chat/completions')
    expect(sent.headers.authorization).toBe('Bearer sk-test')
    expect(sent.headers['x-team']).toBe('tools')
    expect(sent.body).toEqual({
      model: 'gpt-4o-mini',
      messages: request().messages,
      tools: [{ type: 'function', function: { name: weather.name, description: weather.description, parameters: weather.inputSchema } }],
      temperature: 0.2,
      stream: false,
    })
  })

  it('sends no key header without a key, and the tool results of a follow-up as tool messages', async () => {
    server.enqueue(captureReply('openai-chat-parallel-tools.2.response.json'))
    const followUp: ModelRequest = {
      ...request(),
      step: 1,
      messages: [
        ...request().messages,
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', name: 'get_current_weather', arguments: { location: 'Seattle, WA' } }] },
        { role: 'tool', tool_call_id: 'call_1', name: 'get_current_weather', content: '50 degrees and raining' },
      ],
    }
    const output = await model().respond(followUp)
    expect(output).toMatchObject({ kind: 'message', message: { content: expect.stringContaining('Seattle is 50 degrees') } })
    expect(server.requests[0]!.headers.authorization).toBeUndefined()
    const body = server.requests[0]!.body as { messages: unknown[] }
    expect(body.messages.slice(2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_current_weather', arguments: '{"location":"Seattle, WA"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '50 degrees and raining' },
    ])
  })

  it('an extra header replaces the default of the same name in any case, instead of being sent beside it', async () => {
    server.enqueue(captureReply('openai-chat-parallel-tools.2.response.json'))
    await model({ headers: { Authorization: 'Bearer from-header', Accept: 'application/json' } }, { apiKey: 'from-env' }).respond(request())
    expect(server.requests[0]!.headers.authorization).toBe('Bearer from-header')
    expect(server.requests[0]!.headers.accept).toBe('application/json')
  })

  it('with a text format sends no tools, keeps the system prompt, and returns content for the parser', async () => {
    const raw = '<tool_call name="get_current_weather">{"location": "Seattle, WA"}</tool_call>'
    server.enqueue(textReply(raw))
    const followUp: ModelRequest = {
      ...request('xml-tag'),
      messages: [
        ...request().messages,
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'get_current_weather', arguments: { location: 'Boston, MA' } }] },
        { role: 'tool', tool_call_id: 'c1', name: 'get_current_weather', content: 'sunny' },
      ],
    }
    const output = await model().respond(followUp)
    expect(output).toMatchObject({ kind: 'text', raw })
    const body = server.requests[0]!.body as { tools?: unknown; messages: { role: string; content: string }[] }
    expect(body.tools).toBeUndefined()
    expect(body.messages[0]).toEqual(request().messages[0])
    // Earlier calls are written back in the format itself, results as user text.
    expect(body.messages[2]!.role).toBe('assistant')
    expect(body.messages[2]!.content).toContain('Boston, MA')
    expect(body.messages[3]).toEqual({ role: 'user', content: 'Result of get_current_weather (call c1):\nsunny' })
  })

  it('reads a vLLM answer with finish_reason length and an empty tool_calls array as text', async () => {
    server.enqueue(captureReply('vllm-chat-finish-length.response.json'))
    const output = await model().respond(request())
    expect(output.kind).toBe('message')
    if (output.kind === 'message') {
      expect(output.message.tool_calls).toBeUndefined()
      expect(output.message.content).toContain('<|im_end|>')
    }
  })
})

describe('endpoint model, streamed', () => {
  it('accumulates two parallel streamed tool calls and records every chunk with its arrival time', async () => {
    server.enqueue(captureReply('openai-chat-stream-parallel-tools.response.sse'))
    let tick = 0
    const output = await model({ stream: true }, { now: () => tick++ }).respond(request())
    expect(output.kind).toBe('message')
    if (output.kind !== 'message') return
    expect(output.message.tool_calls?.map((c) => [c.id, JSON.parse(c.function.arguments)])).toEqual([
      ['call_fHCjJqt9Pysde6vcJcvbXGBx', { location: 'Seattle, WA' }],
      ['call_3J9foSw3CUb48lrqIXoTky6U', { location: 'San Francisco, CA' }],
    ])
    const chunks = output.timing.chunks ?? []
    expect(chunks.at(-1)?.data).toBe('[DONE]')
    expect(chunks[0]!.data).toContain('"role":"assistant"')
    expect(chunks.every((c, i) => i === 0 || c.atMs > chunks[i - 1]!.atMs)).toBe(true)
    // The role-only first chunk is not a token; the first tool-call delta is.
    expect(output.timing.firstTokenMs).toBe(chunks[1]!.atMs + 1)
    expect(output.timing.totalMs).toBeGreaterThan(chunks.at(-1)!.atMs)
    expect((server.requests[0]!.body as { stream: boolean }).stream).toBe(true)
  })

  it('reads one streamed tool call from the 2026 wire format (obfuscation padding)', async () => {
    server.enqueue(captureReply('openai-chat-stream-one-tool.response.sse'))
    const output = await model({ stream: true }).respond(request())
    expect(output.kind === 'message' && output.message.tool_calls?.length).toBe(1)
  })

  it('returns a streamed refusal as the content', async () => {
    server.enqueue(captureReply('openai-chat-stream-refusal.response.sse'))
    const output = await model({ stream: true }).respond(request('xml-tag'))
    expect(output.kind).toBe('text')
    if (output.kind === 'text') expect(output.raw).toMatch(/sorry|can't|cannot/i)
  })

  it('streams a text-format answer piece by piece', async () => {
    server.enqueue(textReply('The weather in Seattle is rainy today.', { stream: true, pieces: 3 }))
    const output = await model({ stream: true }).respond(request('xml-tag'))
    expect(output).toMatchObject({ kind: 'text', raw: 'The weather in Seattle is rainy today.' })
    expect(output.timing.chunks).toHaveLength(6)
  })
})

describe('endpoint model failures', () => {
  it('connection refused names the URL', async () => {
    const url = server.baseUrl
    await server.close()
    server = await startChatServer()
    const error = await failure(createEndpointModel({ baseUrl: url, model: 'm', stream: false }).respond(request()))
    expect(error.kind).toBe('network')
    expect(error.message).toContain(`Connection refused at ${url}/chat/completions`)
  })

  it('a Node fetch failure without a code (a port fetch refuses) says why, and gives no browser CORS advice', async () => {
    const error = await failure(createEndpointModel({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', stream: false }).respond(request()))
    expect(error.kind).toBe('network')
    expect(error.message).toContain('Could not reach http://127.0.0.1:1/v1/chat/completions (fetch failed: bad port)')
    expect(error.message).not.toContain('CORS')
  })

  it('a browser "Failed to fetch" explains how to allow the origin for Ollama, vLLM and LM Studio', () => {
    const error = networkError(new TypeError('Failed to fetch'), 'http://127.0.0.1:11434/v1/chat/completions')
    expect(error.message).toContain('OLLAMA_ORIGINS')
    expect(error.message).toContain('--allowed-origins')
    expect(error.message).toContain('LM Studio')
  })

  it('401 shows the provider message and points at the key', async () => {
    server.enqueue(errorReply(401, 'Incorrect API key provided: sk-bad.'))
    const error = await failure(model({}, { apiKey: 'sk-bad' }).respond(request()))
    expect(error).toMatchObject({ kind: 'auth', details: { status: 401 } })
    expect(error.message).toContain('Incorrect API key provided: sk-bad.')
    expect(error.message).toContain('API key')
  })

  it('404 model not found (Ollama error shape) names the model', async () => {
    server.enqueue({ kind: 'json', status: 404, body: JSON.stringify({ error: 'model "llama9" not found, try pulling it first' }) })
    const error = await failure(model({ model: 'llama9' }).respond(request()))
    expect(error.kind).toBe('not_found')
    expect(error.message).toContain('model "llama9" not found, try pulling it first')
  })

  it('429 carries retry-after', async () => {
    server.enqueue(errorReply(429, 'Rate limit reached for gpt-4o-mini.', { 'retry-after': '7' }))
    const error = await failure(model().respond(request()))
    expect(error).toMatchObject({ kind: 'rate_limited', details: { status: 429, retryAfterMs: 7000 } })
    expect(error.message).toContain('Rate limit reached for gpt-4o-mini.')
    expect(error.message).toContain('Retry after 7 s')
  })

  it('5xx shows the status and the provider message', async () => {
    server.enqueue(errorReply(503, 'The engine is currently overloaded.'))
    const error = await failure(model().respond(request()))
    expect(error.kind).toBe('server')
    expect(error.message).toContain('503')
    expect(error.message).toContain('The engine is currently overloaded.')
  })

  it('a stream that stops mid-call fails and quotes what arrived', async () => {
    server.enqueue({ kind: 'cut', body: capture('openai-chat-stream-parallel-tools.response.sse'), events: 6 })
    const error = await failure(model({ stream: true }).respond(request()))
    expect(error.kind).toBe('stream_cut')
    expect(error.message).toContain('get_current_weather({"location": "Seatt')
    expect(error.message).toMatch(/^The stream stopped mid-call after \d+ chunks[ ,]/)
  })

  it('an error object inside the stream is shown', async () => {
    server.enqueue({ kind: 'sse', body: 'data: {"error":{"message":"context length exceeded"}}\n\n' })
    const error = await failure(model({ stream: true }).respond(request()))
    expect(error.message).toContain('context length exceeded')
  })

  it('abort() stops the call in flight', async () => {
    server.enqueue({ kind: 'hang', sendHeaders: true })
    const endpoint = model({ stream: true })
    const pending = failure(endpoint.respond(request()))
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    endpoint.abort()
    expect((await pending).kind).toBe('aborted')
  })

  it('an outer AbortSignal stops the call too', async () => {
    server.enqueue({ kind: 'hang' })
    const controller = new AbortController()
    const pending = failure(model({}, { signal: controller.signal }).respond(request()))
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    controller.abort()
    expect((await pending).kind).toBe('aborted')
  })

  it('a server that never answers fails with the timeout', async () => {
    server.enqueue({ kind: 'hang' })
    const error = await failure(model({ timeoutMs: 50 }).respond(request()))
    expect(error.kind).toBe('timeout')
    expect(error.message).toContain('within 50 ms')
  })
})
