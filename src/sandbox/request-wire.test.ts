/**
 * A long run posts each message to the sandbox once: model and route requests carry only what
 * the worker has not seen, and the user code still receives the whole conversation.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { Conversation, LoopRunner, modelRequest, type ModelRequest } from '../core/loop/index'
import type { JsonValue, Message } from '../core/messages'
import type { ToolSpec } from '../core/tools/types'
import { createNodeSandbox, type NodeSandbox } from './node-sandbox'
import { modelRequestSchema, type HostToSandbox, type WireModelRequest } from './protocol'
import { createRequestDecoder, createRequestEncoder, type EncodedModelRequest } from './request-wire'
import { TEXT_PART_CHARS, textParts } from './text-parts'
import { jsonOf, rememberedJson, REMEMBERED_JSON_CHARS } from '../core/util/json-walk'
import { createSandboxHost, type Sandbox, type SpawnWorker } from './sandbox-host'
import { createWorkerDispatch } from './worker-dispatch'

const user = (content: string): Message => ({ role: 'user', content })
const echo: ToolSpec = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }

const TOOLS = `import { tool, z } from 'toolstep'
export const echo = tool({ description: 'Echoes.', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => String(n) })
export function route({ messages }) { return messages.length > 0 ? ['echo'] : [] }`

/** Calls echo until `steps`, with what it saw in the arguments; then answers with a digest of the last conversation. */
const model = (steps: number) => `export default function model({ messages, step, tools }) {
  const last = messages[messages.length - 1]
  const seen = { count: messages.length, last: last.role === 'tool' ? last.content : last.role, tools: tools.length }
  if (step < ${steps}) return { content: null, tool_calls: [{ id: 'c' + step, function: { name: 'echo', arguments: { n: step, seen } } }] }
  return 'saw ' + messages.length + ' messages, first ' + messages[0].content + ', ' + messages.filter((m) => m.role === 'tool').length + ' results'
}`

/** A sandbox whose worker runs in this process (each message structured-cloned), recording what the host posts. */
function inProcessSandbox(posted: HostToSandbox[]): Sandbox {
  const spawn: SpawnWorker = (events) => {
    let alive = true
    const dispatch = createWorkerDispatch((message) => setTimeout(() => alive && events.message(structuredClone(message)), 0))
    return {
      post(message) {
        posted.push(structuredClone(message))
        setTimeout(() => alive && dispatch(structuredClone(message)), 0)
      },
      terminate() {
        alive = false
      },
    }
  }
  return createSandboxHost(spawn, { modelTimeoutMs: 2_000 })
}

/** The model requests posted, as the worker reads them (appended messages posted as JSON text, parsed). */
const wireRequests = (posted: HostToSandbox[]) =>
  posted.flatMap((message): WireModelRequest[] => (message.type === 'call-model' || message.type === 'route' ? [modelRequestSchema.parse(message.request)] : []))

/** The appended messages' text of an encoded request, its pieces joined. */
function appendText(encoded: EncodedModelRequest): string {
  const { append } = encoded.conversation
  if (typeof append === 'string') return append
  if (Array.isArray(append)) throw new Error('The append is an array, not text.')
  return append.pieces.join('')
}

/** `encoded` with its appended text whole, as `encode` gives it. */
const joined = (encoded: EncodedModelRequest) => ({ ...encoded, conversation: { ...encoded.conversation, append: appendText(encoded) } })

/** A sandbox whose worker runs in this process, recording every message it posts to the host. */
function replyRecordingSandbox(replies: unknown[]): Sandbox {
  const spawn: SpawnWorker = (events) => {
    let alive = true
    const dispatch = createWorkerDispatch((message) => {
      replies.push(structuredClone(message))
      setTimeout(() => alive && events.message(structuredClone(message)), 0)
    })
    return { post: (message) => void setTimeout(() => alive && dispatch(structuredClone(message)), 0), terminate: () => void (alive = false) }
  }
  return createSandboxHost(spawn, { modelTimeoutMs: 5_000 })
}

let sandbox: Sandbox | NodeSandbox | undefined
afterEach(() => sandbox?.dispose())

async function run(target: Sandbox, steps: number) {
  const loaded = await target.load({ tools: TOOLS, model: model(steps) })
  expect(loaded.ok).toBe(true)
  const runner = new LoopRunner({ model: target, executor: target, router: target })
  runner.start({ protocol: 'openai', tools: [echo], messages: [{ role: 'system', content: 'sys' }, user('go')], maxSteps: steps + 1 })
  return runner.run()
}

describe('model and route requests send only what is new', () => {
  it('a 200-step run posts each message once, and model.ts and route() see the whole conversation every time', async () => {
    const posted: HostToSandbox[] = []
    sandbox = inProcessSandbox(posted)
    const events = await run(sandbox, 200)
    const requests = wireRequests(posted)
    // route and the model at each of the 301 decides.
    expect(requests).toHaveLength(2 * 201)
    const appended = requests.reduce((sum, request) => sum + request.conversation.append.length, 0)
    // 2 opening messages, then an assistant message and a tool message per step.
    expect(appended).toBe(2 + 2 * 200)
    expect(Math.max(...requests.slice(1).map((request) => request.conversation.append.length))).toBeLessThanOrEqual(2)
    expect(requests.filter((request) => request.tools !== undefined)).toHaveLength(1)
    const finished = events.filter((event) => event.type === 'tool.finished')
    expect(finished).toHaveLength(200)
    const stopped = events.at(-1)
    expect(stopped).toMatchObject({ type: 'loop.stopped', reason: 'final_answer' })
    // What model.ts saw at step 199: 2 + 2 × 199 messages, the last one the result of step 198.
    const lastCall = events.filter((event) => event.type === 'parse.completed').at(-2)
    expect(lastCall?.type === 'parse.completed' && lastCall.calls[0]?.arguments).toEqual({ n: 199, seen: { count: 400, last: "198", tools: 1 } })
    expect(events.find((event) => event.type === 'parse.completed' && event.calls.length === 0)).toMatchObject({ text: 'saw 402 messages, first sys, 200 results' })
  })

  it('sends the whole conversation again to a worker that was restarted after a model timeout', async () => {
    const posted: HostToSandbox[] = []
    sandbox = inProcessSandbox(posted)
    await sandbox.load({
      tools: TOOLS,
      model: `export default ({ messages, step }) => step === 1 ? new Promise(() => {}) : 'seen ' + messages.length`,
    })
    let conversation = Conversation.of([user('a'), user('b')])
    const ask = (step: number) => modelRequest({ conversation, tools: [echo], step, protocol: 'openai', systemPromptBase: null }, { contextWindow: 0, finalTurn: false }, null).request
    expect(await sandbox.respond(ask(0))).toEqual({ kind: 'text', raw: 'seen 2' })
    conversation = conversation.append([user('c')])
    await expect(sandbox.respond(ask(1))).rejects.toThrow(/timed out/)
    conversation = conversation.append([user('d')])
    expect(await sandbox.respond(ask(2))).toEqual({ kind: 'text', raw: 'seen 4' })
    const requests = wireRequests(posted)
    expect(requests.map((request) => [request.conversation.keep, request.conversation.append.length])).toEqual([[0, 2], [2, 1], [0, 4]])
  })

  it('a request from an earlier point of the conversation (time travel) reuses what the worker holds', async () => {
    const posted: HostToSandbox[] = []
    sandbox = inProcessSandbox(posted)
    await sandbox.load({ tools: TOOLS, model: `export default ({ messages }) => messages.map((m) => m.content).join(',')` })
    const early = Conversation.of([user('a'), user('b')])
    const late = early.append([user('c')])
    const ask = (conversation: Conversation) => modelRequest({ conversation, tools: [echo], step: 0, protocol: 'openai', systemPromptBase: null }, { contextWindow: 0, finalTurn: false }, null).request
    expect(await sandbox.respond(ask(late))).toEqual({ kind: 'text', raw: 'a,b,c' })
    expect(await sandbox.respond(ask(early))).toEqual({ kind: 'text', raw: 'a,b' })
    const fork = early.append([user('x')])
    expect(await sandbox.respond(ask(fork))).toEqual({ kind: 'text', raw: 'a,b,x' })
    // A request not made by the engine is sent as it is.
    const plain: ModelRequest = { messages: [user('plain')], tools: [echo], step: 0, protocol: 'openai' }
    expect(await sandbox.respond(plain)).toEqual({ kind: 'text', raw: 'plain' })
    expect(wireRequests(posted).map((request) => [request.conversation.keep, request.conversation.append.length])).toEqual([[0, 3], [3, 0], [0, 3], [0, 1]])
  })

  it('messages user code receives are frozen: changing one fails there and later steps see it unchanged', async () => {
    sandbox = createNodeSandbox()
    await sandbox.load({
      tools: TOOLS,
      model: `export default ({ messages, step }) => {
  if (step === 0) { messages[0].content = 'changed'; return 'unreachable' }
  messages.push({ role: 'user', content: 'mine' })
  return messages[0].content + ' ' + messages.length
}`,
    })
    let conversation = Conversation.of([user('original')])
    const ask = (step: number) => modelRequest({ conversation, tools: [echo], step, protocol: 'openai', systemPromptBase: null }, { contextWindow: 0, finalTurn: false }, null).request
    await expect(sandbox.respond(ask(0))).rejects.toThrow(/read only|read-only|Cannot assign/)
    conversation = conversation.append([user('next')])
    // Its own array it may change; the next request gets a fresh one.
    expect(await sandbox.respond(ask(1))).toEqual({ kind: 'text', raw: 'original 3' })
    expect(await sandbox.respond(ask(2))).toEqual({ kind: 'text', raw: 'original 3' })
  })
})

describe('the worker side of the request wire', () => {
  it('refuses a request that keeps more than it holds, and then needs the whole conversation again', () => {
    const decoder = createRequestDecoder()
    const first = decoder.decode({ conversation: { keep: 0, append: [user('a'), user('b')] }, parts: [{ from: 0, to: 2 }], tools: [echo], step: 0, protocol: 'openai' })
    expect(first.ok && first.request.messages).toEqual([user('a'), user('b')])
    const ahead = decoder.decode({ conversation: { keep: 5, append: [] }, parts: [{ from: 0, to: 5 }], step: 1, protocol: 'openai' })
    expect(ahead).toEqual({ ok: false, error: expect.stringMatching(/out of step/) })
    // Its copy was dropped, tools included.
    expect(decoder.decode({ conversation: { keep: 2, append: [] }, parts: [{ from: 0, to: 2 }], step: 2, protocol: 'openai' }).ok).toBe(false)
    const again = decoder.decode({ conversation: { keep: 0, append: [user('a')] }, parts: [{ from: 0, to: 1 }, { message: user('notice') }], tools: [], step: 3, protocol: 'openai' })
    expect(again.ok && again.request.messages).toEqual([user('a'), user('notice')])
  })

  it('the host encoder sends the tools only when they change', () => {
    const encoder = createRequestEncoder()
    const conversation = Conversation.of([user('a')])
    const ask = (tools: ToolSpec[]) => modelRequest({ conversation, tools, step: 0, protocol: 'openai', systemPromptBase: null }, { contextWindow: 0, finalTurn: false }, null).request
    const tools = [echo]
    expect(encoder.encode(ask(tools)).tools).toEqual([echo])
    expect(encoder.encode(ask(tools)).tools).toBeUndefined()
    expect(encoder.encode(ask([echo])).tools).toBeUndefined()
    expect(encoder.encode(ask([])).tools).toEqual([])
    encoder.reset()
    expect(encoder.encode(ask([])).tools).toEqual([])
  })

  it('posts the appended messages as JSON text, one copy however many objects they hold, and the worker reads them back alike', () => {
    const encoder = createRequestEncoder()
    const wide: Message = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'take', arguments: { a: Array.from({ length: 1000 }, (_, k) => ({ k })) } }] }
    const conversation = Conversation.of([user('a'), wide])
    const posted = encoder.encode(modelRequest({ conversation, tools: [echo], step: 0, protocol: 'openai', systemPromptBase: null }, { contextWindow: 0, finalTurn: false }, null).request)
    expect(typeof posted.conversation.append).toBe('string')
    const read = modelRequestSchema.parse(posted)
    expect(read.conversation.append).toEqual([user('a'), wide])
    const decoded = createRequestDecoder().decode(read)
    expect(decoded.ok && decoded.request.messages).toEqual([user('a'), wide])
    // Text that is not JSON is refused with the reason, not thrown.
    const broken = modelRequestSchema.safeParse({ ...posted, conversation: { keep: 0, append: '[{"role":' } })
    expect(broken.success).toBe(false)
    expect(JSON.stringify(broken.error?.issues)).toContain('The appended messages are not JSON: ')
  })

  it('reuses the written text of big arguments (a tool batch wrote it) and the worker reads the same messages', () => {
    const args = { a: Array.from({ length: 10_000 }, (_, k) => ({ k })) }
    expect(jsonOf(args).length).toBeGreaterThanOrEqual(REMEMBERED_JSON_CHARS)
    expect(rememberedJson(args)).toBeDefined()
    const wide: Message = { role: 'assistant', content: 'Taking them.', tool_calls: [{ id: 'c1', name: 'take', arguments: args, rawArguments: JSON.stringify(args) }, { id: 'c2', name: 'none', arguments: {} }] }
    const messages = [user('a'), wide, { role: 'tool', tool_call_id: 'c1', name: 'take', content: 'ok' } as Message]
    const posted = createRequestEncoder().encode(modelRequest({ conversation: Conversation.of(messages), tools: [echo], step: 0, protocol: 'openai', systemPromptBase: null }, { contextWindow: 0, finalTurn: false }, null).request)
    expect(typeof posted.conversation.append).toBe('string')
    expect(JSON.parse(posted.conversation.append as string)).toEqual(messages)
    expect(modelRequestSchema.parse(posted).conversation.append).toEqual(messages)
  })

  it('writes a long append in slices with the page given its turn between them, posting what one encode would', async () => {
    const many = Array.from({ length: 2_600 }, (_, k) => user(`m${k}`))
    const ask = (messages: Message[], step: number) => modelRequest({ conversation: Conversation.of(messages), tools: [echo], step, protocol: 'openai', systemPromptBase: null }, { contextWindow: 0, finalTurn: false }, null).request
    const request = ask(many, 0)
    const whole = createRequestEncoder().encode(request)
    let pauses = 0
    const sliced = await createRequestEncoder().encodeInSlices(request, async () => void pauses++, 0)
    expect(pauses).toBeGreaterThanOrEqual(5)
    expect(joined(sliced)).toEqual(whole)
    expect(JSON.parse(appendText(sliced))).toEqual(many)
  })

  it('writes the calls of one assistant message of thousands of calls in slices too, to the same text', async () => {
    const calls = Array.from({ length: 3_000 }, (_, k) => ({ id: `c${k}`, name: 'echo', arguments: { n: k } }))
    const turn: Message[] = [user('go'), { role: 'assistant', content: null, tool_calls: calls }, ...calls.map((call): Message => ({ role: 'tool', tool_call_id: call.id, name: 'echo', content: String(call.arguments.n) }))]
    const request = modelRequest({ conversation: Conversation.of(turn), tools: [echo], step: 0, protocol: 'openai', systemPromptBase: null }, { contextWindow: 0, finalTurn: false }, null).request
    const whole = createRequestEncoder().encode(request)
    let pauses = 0
    const sliced = await createRequestEncoder().encodeInSlices(request, async () => void pauses++, 0)
    expect(appendText(sliced)).toBe(whole.conversation.append)
    // One pause before the first slice, then one per slice: 6 of the message's calls, 6 of the results.
    expect(pauses).toBeGreaterThanOrEqual(12)
  })

  it('plans a sliced request again when the worker was reset while it was being written', async () => {
    const conversation = Conversation.of(Array.from({ length: 2_000 }, (_, k) => user(`m${k}`)))
    const encoder = createRequestEncoder()
    const ask = (from: Conversation, step: number) => modelRequest({ conversation: from, tools: [echo], step, protocol: 'openai', systemPromptBase: null }, { contextWindow: 0, finalTurn: false }, null).request
    encoder.encode(ask(conversation, 0))
    const longer = conversation.append(Array.from({ length: 2_000 }, (_, k) => user(`n${k}`)))
    // The worker restarts (a timeout) while the next request is being written: it then holds nothing.
    const sliced = await encoder.encodeInSlices(ask(longer, 1), async () => encoder.reset(), 0)
    expect(sliced.conversation.keep).toBe(0)
    expect(sliced.tools).toEqual([echo])
    expect(JSON.parse(appendText(sliced))).toHaveLength(4_000)
    // Without the reset, only what is new goes.
    const fresh = createRequestEncoder()
    fresh.encode(ask(conversation, 0))
    const next = await fresh.encodeInSlices(ask(longer, 1), async () => undefined, 0)
    expect(next.conversation.keep).toBe(2_000)
    expect(JSON.parse(appendText(next))).toHaveLength(2_000)
  })

  it('posts a long append as text parts, one per task, which the worker joins before model.ts reads it', async () => {
    const posted: HostToSandbox[] = []
    sandbox = inProcessSandbox(posted)
    await sandbox.load({ tools: TOOLS, model: `export default ({ messages }) => messages.map((m) => m.content.length).join(',')` })
    const long = 'é"\\'.repeat(1_000_000)
    const ask = (conversation: Conversation) => modelRequest({ conversation, tools: [echo], step: 0, protocol: 'openai', systemPromptBase: null }, { contextWindow: 0, finalTurn: false }, null).request
    const conversation = Conversation.of([user('a'), user(long), user('b')])
    expect(await sandbox.respond(ask(conversation))).toEqual({ kind: 'text', raw: `1,${long.length},1` })
    const parts = posted.filter((message) => message.type === 'text-part')
    // ~5 MB of JSON text ("é", an escaped quote and backslash): in parts of at most 1 M chars, none in the request.
    expect(parts.length).toBeGreaterThanOrEqual(5)
    expect(Math.max(...parts.map((part) => part.text.length))).toBeLessThanOrEqual(TEXT_PART_CHARS)
    const request = posted.find((message) => message.type === 'call-model')
    expect(request?.type === 'call-model' && request.request.conversation.append).toEqual({ textParts: parts[0]?.key, count: parts.length })
    // The next request sends only what is new, in the request itself.
    expect(await sandbox.respond(ask(conversation.append([user('cc')])))).toEqual({ kind: 'text', raw: `1,${long.length},1,2` })
    expect(posted.filter((message) => message.type === 'text-part')).toHaveLength(parts.length)
  })

  it('keeps the written text of big arguments as a piece of its own, never copied into a longer string before it is posted', async () => {
    const args = { a: Array.from({ length: 200_000 }, (_, k) => ({ k })) }
    const text = jsonOf(args)
    const wide: Message = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'take', arguments: args }] }
    const messages = [user('a'), wide, { role: 'tool', tool_call_id: 'c1', name: 'take', content: 'ok' } as Message]
    const request = modelRequest({ conversation: Conversation.of(messages), tools: [echo], step: 0, protocol: 'openai', systemPromptBase: null }, { contextWindow: 0, finalTurn: false }, null).request
    const encoded = await createRequestEncoder().encodeInSlices(request, async () => undefined, 0)
    const { append } = encoded.conversation
    expect(typeof append === 'object' && !Array.isArray(append) && append.pieces.includes(text)).toBe(true)
    expect(JSON.parse(appendText(encoded))).toEqual(messages)
  })

  it('posts a tool batch of megabytes of arguments in text parts too, and the tool gets them whole', async () => {
    const posted: HostToSandbox[] = []
    sandbox = inProcessSandbox(posted)
    await sandbox.load({ tools: `import { tool, z } from 'toolstep'\nexport const size = tool({ description: 'Size.', inputSchema: z.object({ s: z.string(), list: z.array(z.number()) }), execute: ({ s, list }) => s.length + ' ' + list.length + ' ' + list[list.length - 1] })`, model: `export default () => 'x'` })
    const args = { s: '"é\\'.repeat(400_000), list: Array.from({ length: 100_000 }, (_, k) => k) }
    const spec: ToolSpec = { name: 'size', description: 'Size.', inputSchema: { type: 'object' } }
    const outcome = await sandbox.execute({ id: 'c1', name: 'size', arguments: args }, spec)
    expect(outcome).toMatchObject({ ok: true, result: `1200000 100000 99999` })
    const parts = posted.filter((message) => message.type === 'text-part')
    expect(parts.length).toBeGreaterThanOrEqual(3)
    expect(Math.max(...parts.map((part) => part.text.length))).toBeLessThanOrEqual(TEXT_PART_CHARS)
    const batch = posted.find((message) => message.type === 'execute-tools')
    expect(batch?.type === 'execute-tools' && batch.calls).toEqual({ textParts: parts[0]?.key, count: parts.length })
  })

  it('gets a model output of megabytes back in text parts, one message each, and hands the engine the whole text', async () => {
    const replies: unknown[] = []
    sandbox = replyRecordingSandbox(replies)
    await sandbox.load({ tools: TOOLS, model: `export default ({ step }) => step === 0 ? 'é"\\\\'.repeat(900_000) + '!' : 'short'` })
    const ask = (step: number) => modelRequest({ conversation: Conversation.of([user('go')]), tools: [echo], step, protocol: 'openai', systemPromptBase: null }, { contextWindow: 0, finalTurn: false }, null).request
    const output = await sandbox.respond(ask(0))
    expect(output.kind === 'text' && output.raw).toBe('é"\\'.repeat(900_000) + '!')
    const parts = replies.filter((message) => (message as { type?: string }).type === 'text-part') as { text: string }[]
    expect(parts).toHaveLength(Math.ceil(2_700_001 / TEXT_PART_CHARS))
    expect(Math.max(...parts.map((part) => part.text.length))).toBeLessThanOrEqual(TEXT_PART_CHARS)
    expect(replies.find((message) => (message as { type?: string }).type === 'model-result')).toMatchObject({ result: { ok: true, output: { kind: 'text', raw: { count: parts.length } } } })
    // A short output comes in its result, as before.
    expect(await sandbox.respond(ask(1))).toEqual({ kind: 'text', raw: 'short' })
    expect(replies.filter((message) => (message as { type?: string }).type === 'text-part')).toHaveLength(parts.length)
  })

  it('gets a tool result of megabytes back in text parts too, and the engine gets it whole', async () => {
    const replies: unknown[] = []
    sandbox = replyRecordingSandbox(replies)
    await sandbox.load({ tools: `import { tool, z } from 'toolstep'\nexport const big = tool({ description: 'Big.', inputSchema: z.object({}), execute: () => 'ü'.repeat(2_500_000) + '.' })\nexport const small = tool({ description: 'Small.', inputSchema: z.object({}), execute: () => 'ok' })`, model: `export default () => 'x'` })
    const spec = (name: string): ToolSpec => ({ name, description: name, inputSchema: { type: 'object' } })
    const [big, small] = await Promise.all([sandbox.execute({ id: 'c1', name: 'big', arguments: {} }, spec('big')), sandbox.execute({ id: 'c2', name: 'small', arguments: {} }, spec('small'))])
    expect(big).toMatchObject({ ok: true, result: 'ü'.repeat(2_500_000) + '.' })
    expect(small).toMatchObject({ ok: true, result: 'ok' })
    const parts = replies.filter((message) => (message as { type?: string }).type === 'text-part')
    expect(parts).toHaveLength(3)
    const results = replies.filter((message) => (message as { type?: string }).type === 'tool-results').flatMap((message) => (message as { results: { result: unknown }[] }).results)
    expect(results.map((result) => result.result)).toEqual(expect.arrayContaining([{ ok: true, result: { textParts: expect.any(String), count: 3 } }, { ok: true, result: 'ok' }]))
  })

  it('posts a tool result of megabytes to the summarize hook in text parts, and the hook reads it whole', async () => {
    const posted: HostToSandbox[] = []
    sandbox = inProcessSandbox(posted)
    await sandbox.load({ tools: `${TOOLS}\nexport const summarize = (text, { tool, maxChars }) => tool + ' ' + text.length + ' ' + text.slice(-3) + ' ' + maxChars`, model: `export default () => 'x'` })
    const result = 'ß'.repeat(2_200_000) + 'end'
    expect(await sandbox.summarize(result, { tool: 'echo', maxChars: 100 })).toBe('echo 2200003 end 100')
    const parts = posted.filter((message) => message.type === 'text-part')
    expect(parts).toHaveLength(3)
    expect(posted.find((message) => message.type === 'summarize')).toMatchObject({ result: { textParts: parts[0]?.key, count: 3 } })
  })

  it('answers a request whose text parts did not all arrive with a protocol error, and forgets the parts', async () => {
    const replies: unknown[] = []
    const dispatch = createWorkerDispatch((message) => replies.push(message))
    const wire = { conversation: { keep: 0, append: { textParts: 't9', count: 2 } }, parts: [{ from: 0, to: 1 }], tools: [echo], step: 0, protocol: 'openai' }
    dispatch({ type: 'text-part', key: 't9', text: '[{"role":"user",' })
    dispatch({ type: 'call-model', requestId: 'r1', request: wire })
    expect(replies).toContainEqual({ type: 'protocol-error', requestId: 'r1', message: "The request's text came in 1 of its 2 parts." })
    // Parts of another request, or a second try with the first parts forgotten, do not mix.
    dispatch({ type: 'text-part', key: 't9', text: '"content":"x"}]' })
    dispatch({ type: 'call-model', requestId: 'r2', request: wire })
    expect(replies).toContainEqual({ type: 'protocol-error', requestId: 'r2', message: "The request's text came in 1 of its 2 parts." })
  })

  it('cuts pieces into parts of a given size that join to the same text', () => {
    const pieces = ['[', 'a'.repeat(25), ',', 'bc', 'd'.repeat(7), ']']
    for (const size of [1, 3, 10, 26, 100]) {
      const parts = [...textParts(pieces, size)]
      expect(parts.join('')).toBe(pieces.join(''))
      expect(parts.slice(0, -1).every((part) => part.length === size)).toBe(true)
      expect(parts.at(-1)!.length).toBeLessThanOrEqual(size)
    }
    expect([...textParts([], 10)]).toEqual([])
  })

  it('posts messages too deep for JSON text as the array', () => {
    let deep: JsonValue = 1
    for (let level = 0; level < 20_000; level++) deep = [deep]
    const message: Message = { role: 'tool', tool_call_id: 'c1', content: 'ok', ...({ extra: deep } as object) } as Message
    const posted = createRequestEncoder().encode(modelRequest({ conversation: Conversation.of([message]), tools: [echo], step: 0, protocol: 'openai', systemPromptBase: null }, { contextWindow: 0, finalTurn: false }, null).request)
    expect(Array.isArray(posted.conversation.append)).toBe(true)
  })
})
