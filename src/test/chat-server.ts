/**
 * A small OpenAI-compatible Chat Completions server for tests: listens on 127.0.0.1 on a free
 * port, answers `POST /v1/chat/completions` with the replies queued by the test (recorded
 * provider bodies from `src/core/trace/__fixtures__/captures/`, streamed or not), and can be told to fail in
 * each way a real server does. Every request body is kept for assertions. Started and closed
 * by the tests themselves.
 */
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** What the server answers one request with. */
export type Reply =
  /** A JSON body (a recorded non-streamed response, or an error body with `status`). */
  | { kind: 'json'; body: string; status?: number; headers?: Record<string, string> }
  /** A `text/event-stream` body, written event by event (each flushed on its own). */
  | { kind: 'sse'; body: string }
  /** The first `events` events of an SSE body, then the connection is destroyed. */
  | { kind: 'cut'; body: string; events: number }
  /** Headers and nothing more (a stream that stalls), or no answer at all: for timeouts and Stop. */
  | { kind: 'hang'; sendHeaders?: boolean; /** SSE events written before the stall (implies headers). */ before?: string[] }

/** A request the server received. */
export interface ReceivedRequest {
  path: string
  headers: IncomingMessage['headers']
  body: unknown
}

export interface ChatServer {
  /** Base URL to configure, e.g. `http://127.0.0.1:41234/v1`. */
  baseUrl: string
  /** Queues replies, answered in order, one per request. */
  enqueue(...replies: Reply[]): void
  /** Requests received so far, in order. */
  requests: ReceivedRequest[]
  /**
   * Resolves once `count` requests in all have been answered (errors included): the reply (for a
   * `hang`, its headers and `before` events) handed to the socket. Lets a test wait on the event, not on a delay.
   */
  answered(count: number): Promise<void>
  /** Stops listening and drops open connections. */
  close(): Promise<void>
}

// The recorded captures main keeps for the importers (licence notice beside them).
const CAPTURES = new URL('../core/trace/__fixtures__/captures/', import.meta.url)

/** A recorded capture's text, by file name (see `src/core/trace/__fixtures__/captures/README.md`). */
export function capture(name: string): string {
  return readFileSync(new URL(name, CAPTURES), 'utf8')
}

/** The recorded reply stored in capture `name` (`.sse` streamed, `.json` not). */
export function captureReply(name: string): Reply {
  return name.endsWith('.sse') ? { kind: 'sse', body: capture(name) } : { kind: 'json', body: capture(name) }
}

/** An error answer as OpenAI-compatible servers write it: `{"error": {"message", "type", "code"}}`. */
export function errorReply(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return { kind: 'json', status, headers, body: JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } }) }
}

/**
 * A text answer (for text wire formats, whose calls are in `content`): a `chat.completion`
 * body, or with `stream` a chunk per `pieces` part of the text (split on word boundaries), a
 * `finish_reason: stop` chunk and `[DONE]`, shaped as OpenAI streams are.
 */
export function textReply(content: string, options: { stream?: boolean; pieces?: number } = {}): Reply {
  const base = { id: 'chatcmpl-test', created: 1_700_000_000, model: 'test-model' }
  if (!options.stream) {
    return { kind: 'json', body: JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }) }
  }
  const words = content.split(/(?<=\s)/)
  const count = Math.max(1, Math.min(options.pieces ?? 4, words.length))
  const size = Math.ceil(words.length / count)
  const parts: string[] = []
  for (let i = 0; i < words.length; i += size) parts.push(words.slice(i, i + size).join(''))
  const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  const body = chunk({ role: 'assistant', content: '' }, null) + parts.map((part) => chunk({ content: part }, null)).join('') + chunk({}, 'stop') + 'data: [DONE]\n\n'
  return { kind: 'sse', body }
}

/** SSE events of a body: the blocks between blank lines, each with its terminator. */
function sseEvents(body: string): string[] {
  return body
    .replace(/\r\n/g, '\n')
    .split(/\n\n+/)
    .filter((block) => block.trim() !== '')
    .map((block) => `${block}\n\n`)
}

/**
 * Starts the server. With `cors: false` it sends no `Access-Control-Allow-*` headers and
 * rejects preflights, as Ollama does for an origin not in `OLLAMA_ORIGINS`.
 */
export async function startChatServer(options: { cors?: boolean } = {}): Promise<ChatServer> {
  const cors = options.cors ?? true
  const queue: Reply[] = []
  const requests: ReceivedRequest[] = []
  let answeredCount = 0
  const waiting: { count: number; resolve: () => void }[] = []
  const markAnswered = () => {
    answeredCount++
    for (const waiter of waiting.splice(0)) {
      if (answeredCount >= waiter.count) waiter.resolve()
      else waiting.push(waiter)
    }
  }
  const sockets = new Set<Socket>()
  const corsHeaders = (): Record<string, string> =>
    cors ? { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST, OPTIONS', 'access-control-expose-headers': 'retry-after, retry-after-ms' } : {}

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(cors ? 204 : 403, corsHeaders()).end()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {
        // kept as text: a test may assert on a malformed request
      }
      requests.push({ path: req.url ?? '', headers: req.headers, body })
      if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json', ...corsHeaders() }).end(JSON.stringify({ error: { message: `No route ${req.method} ${req.url}` } }), markAnswered)
        return
      }
      const reply = queue.shift()
      if (!reply) {
        res.writeHead(500, { 'content-type': 'application/json', ...corsHeaders() }).end(JSON.stringify({ error: { message: 'The test server has no reply queued for this request.' } }), markAnswered)
        return
      }
      answer(reply, res)
    })
  })

  function answer(reply: Reply, res: ServerResponse): void {
    switch (reply.kind) {
      case 'json':
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...corsHeaders(), ...reply.headers }).end(reply.body, markAnswered)
        return
      case 'hang': {
        if (reply.sendHeaders || reply.before) res.writeHead(200, { 'content-type': 'text/event-stream', ...corsHeaders() }).flushHeaders()
        const before = reply.before ?? []
        if (before.length === 0) markAnswered()
        before.forEach((data, index) => res.write(`data: ${data}\n\n`, index === before.length - 1 ? markAnswered : undefined))
        return
      }
      case 'sse':
      case 'cut': {
        const events = sseEvents(reply.body)
        const limit = reply.kind === 'cut' ? reply.events : events.length
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...corsHeaders() })
        let index = 0
        // One event per macrotask, so clients see them arrive as separate reads.
        const next = () => {
          if (res.destroyed) return
          if (index >= limit) {
            if (reply.kind === 'cut') res.destroy()
            else res.end()
            markAnswered()
            return
          }
          res.write(events[index++])
          setImmediate(next)
        }
        next()
        return
      }
    }
  }

  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    enqueue: (...replies) => void queue.push(...replies),
    requests,
    answered: (count) =>
      new Promise<void>((resolve) => {
        if (answeredCount >= count) resolve()
        else waiting.push({ count, resolve })
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
