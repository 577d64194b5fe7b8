/**
 * An OpenAI-compatible Chat Completions endpoint as the loop's `Model` (OpenAI API reference,
 * "Create chat completion"; the same request works against Ollama, vLLM, LM Studio and the
 * llama.cpp server under `/v1`). Uses only `fetch`, `AbortController` and `TextDecoder`, so
 * it runs in the page, in a worker and in Node >= 20. Streams are read with
 * `eventsource-parser` (the SSE framing of the HTML standard), chunk by chunk, so every raw
 * `data:` payload is kept with its arrival time.
 */
import { createParser } from 'eventsource-parser'
import type { Model, ModelOutput, ModelRequest, ResponseTiming } from '../loop/interfaces'
import { getProtocol } from '../protocols/index'
import { CompletionAccumulator, readCompletionBody, toNativeMessage, type Completion } from './completion'
import { EndpointError, httpError, networkError, retryAfterMs } from './errors'
import { chatCompletionsBody } from './request'
import { chatCompletionsUrl, DEFAULT_ENDPOINT_TIMEOUT_MS, type EndpointConfig, type EndpointCredentials } from './settings'
import { errorMessage } from '../util'

/** What the endpoint model returns: the loop's output plus its timing. */
export type EndpointOutput = ModelOutput & { timing: ResponseTiming }
export type { ResponseTiming, StreamChunk } from '../loop/interfaces'

/** An endpoint model: `respond` as the loop needs it, and `abort` for a Stop button. */
export interface EndpointModel extends Model {
  respond(request: ModelRequest): Promise<EndpointOutput>
  /** Cancels the call in flight (it rejects with an `aborted` {@link EndpointError}); no-op when idle. */
  abort(): void
  /**
   * What the streamed call in flight has received so far (text and tool calls, at most 2000
   * chars), so a Stop can keep it in its stop detail; `''` when idle or nothing arrived yet.
   */
  received(): string
}

/** `detail` followed by what `model` had received of its call in flight, if anything. */
export function withReceived(detail: string, model: Pick<EndpointModel, 'received'> | null | undefined): string {
  const received = model?.received() ?? ''
  return received === '' ? detail : `${detail} Received so far: ${received}`
}

export interface EndpointModelOptions extends EndpointCredentials {
  /** Injected for tests; the global `fetch` by default. */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>
  /** Current time in ms; `Date.now` by default. */
  now?: () => number
  /** Aborts every call when it fires (e.g. the CLI's Ctrl-C). */
  signal?: AbortSignal
}

/**
 * Creates the model. Each `respond` sends one request; with a native wire format (`openai`)
 * the output is the assistant message (tool calls native), with a text format it is the
 * message's `content` for that format's parser. Rejects with an {@link EndpointError} whose
 * message names the failure: connection refused or CORS, 401/403, 404, 429 (with
 * `retry-after`), 5xx, a stream that stops before `finish_reason`/`[DONE]` (the partial output
 * is quoted), a server error inside the stream, abort, and the timeout (`config.timeoutMs`,
 * default 60 000 ms, for the whole call).
 */
export function createEndpointModel(config: EndpointConfig, options: EndpointModelOptions = {}): EndpointModel {
  const doFetch = options.fetch ?? ((input: string, init?: RequestInit) => fetch(input, init))
  const now = options.now ?? Date.now
  const url = chatCompletionsUrl(config.baseUrl)
  const timeoutMs = config.timeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS
  let abortCurrent: (() => void) | null = null
  /** Reads what the stream in flight has accumulated; null when no stream is being read. */
  let receivedSoFar: (() => string) | null = null

  async function respond(request: ModelRequest): Promise<EndpointOutput> {
    const controller = new AbortController()
    let reason: 'aborted' | 'timeout' | null = null
    const stop = (why: 'aborted' | 'timeout') => {
      reason ??= why
      controller.abort()
    }
    const onOuterAbort = () => stop('aborted')
    abortCurrent = onOuterAbort
    if (options.signal?.aborted) stop('aborted')
    options.signal?.addEventListener('abort', onOuterAbort, { once: true })
    const timer = setTimeout(() => stop('timeout'), timeoutMs)
    const started = now()
    const interrupted = (partial?: string): EndpointError =>
      reason === 'timeout'
        ? new EndpointError('timeout', `The model did not answer within ${timeoutMs} ms (the endpoint timeout).${partial ? ` Received so far: ${partial}` : ''}`)
        : new EndpointError('aborted', `Stopped by the user.${partial ? ` Received so far: ${partial}` : ''}`)
    try {
      const body = chatCompletionsBody(config, request)
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: config.stream ? 'text/event-stream' : 'application/json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      }
      // Header names are case-insensitive: `Authorization` given by the user replaces the key's
      // `authorization` (fetch would otherwise send both, joined by a comma).
      for (const [name, value] of Object.entries(config.headers ?? {})) {
        delete headers[name.toLowerCase()]
        headers[name] = value
      }
      let response: Response
      try {
        response = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: controller.signal })
      } catch (error) {
        if (reason) throw interrupted()
        throw networkError(error, url)
      }
      if (!response.ok) {
        const text = await response.text().catch(() => '')
        const after = retryAfterMs(response.headers, now())
        throw httpError({ status: response.status, statusText: response.statusText, body: text, url, model: config.model, ...(after !== undefined ? { retryAfterMs: after } : {}) })
      }
      const contentType = response.headers.get('content-type') ?? ''
      const native = getProtocol(request.protocol)?.native === true
      if (!contentType.includes('text/event-stream')) {
        let text: string
        try {
          text = await response.text()
        } catch (error) {
          if (reason) throw interrupted()
          throw new EndpointError('stream_cut', `The response stopped before it was complete: ${errorMessage(error)}`)
        }
        const read = readCompletionBody(text)
        if (!read.ok) throw new EndpointError('bad_response', read.error)
        return output(read.completion, native, { totalMs: now() - started })
      }
      return await readStream(response, started, native, interrupted, () => reason !== null)
    } finally {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onOuterAbort)
      if (abortCurrent === onOuterAbort) abortCurrent = null
    }
  }

  async function readStream(response: Response, started: number, native: boolean, interrupted: (partial?: string) => EndpointError, stopped: () => boolean): Promise<EndpointOutput> {
    const chunks: NonNullable<ResponseTiming['chunks']> = []
    const accumulator = new CompletionAccumulator()
    const reading = () => partialText(accumulator.result())
    receivedSoFar = reading
    let firstTokenMs: number | undefined
    let done = false
    let streamError: string | null = null
    const parser = createParser({
      onEvent: (event) => {
        if (done || streamError) return
        chunks.push({ atMs: now() - started, data: event.data })
        if (event.data.trim() === '[DONE]') {
          done = true
          return
        }
        streamError = accumulator.add(event.data)
        if (firstTokenMs === undefined && accumulator.sawToken) firstTokenMs = now() - started
      },
    })
    const body = response.body?.getReader()
    if (!body) throw new EndpointError('bad_response', 'The streamed response has no body.')
    const reader = body
    const decoder = new TextDecoder()
    try {
      return await readEvents()
    } finally {
      if (receivedSoFar === reading) receivedSoFar = null
    }

    async function readEvents(): Promise<EndpointOutput> {
      try {
        for (;;) {
          const { done: ended, value } = await reader.read()
          if (ended) break
          parser.feed(decoder.decode(value, { stream: true }))
          if (streamError) break
        }
        parser.feed(decoder.decode())
      } catch (error) {
        if (stopped()) throw interrupted(partialText(accumulator.result()))
        throw new EndpointError('stream_cut', `The stream stopped mid-call after ${chunks.length} ${chunks.length === 1 ? 'chunk' : 'chunks'} (${errorMessage(error)}). Received so far: ${partialText(accumulator.result()) || '(nothing)'}`)
      }
      if (streamError) {
        await reader.cancel().catch(() => undefined)
        throw new EndpointError('bad_response', streamError)
      }
      const completion = accumulator.result()
      if (!done && completion.finishReason === null)
        throw new EndpointError('stream_cut', `The stream stopped mid-call after ${chunks.length} ${chunks.length === 1 ? 'chunk' : 'chunks'}, before a finish_reason or [DONE]. Received so far: ${partialText(completion) || '(nothing)'}`)
      return output(completion, native, { totalMs: now() - started, ...(firstTokenMs !== undefined ? { firstTokenMs } : {}), chunks })
    }
  }

  return {
    respond,
    abort() {
      abortCurrent?.()
    },
    received() {
      return receivedSoFar?.() ?? ''
    },
  }
}

function output(completion: Completion, native: boolean, timing: ResponseTiming): EndpointOutput {
  const finish = completion.finishReason === null ? {} : { finishReason: completion.finishReason }
  if (native) return { kind: 'message', message: toNativeMessage(completion), timing, ...finish }
  return { kind: 'text', raw: completion.content ?? completion.refusal ?? '', timing, ...finish }
}

/** What arrived before a failure, cut at 2000 chars, so the error loses nothing worth seeing. */
function partialText(completion: Completion): string {
  const calls = completion.toolCalls.map((call) => `${call.name}(${call.arguments})`).join(', ')
  const text = [completion.content ?? completion.refusal ?? '', calls ? `tool calls: ${calls}` : ''].filter((part) => part !== '').join(' — ')
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text
}
