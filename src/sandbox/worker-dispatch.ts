/**
 * The message loop shared by both worker entries (Web Worker and worker_threads): validates each
 * request, runs it on one {@link SandboxRuntime}, and posts the reply with the same `requestId`.
 */
import type { ModelOutput } from '../core/loop/interfaces'
import { writeOpenAIAssistant } from '../core/wire/openai-chat'
import { hostToSandboxSchema, type BatchResult, type PostedBatchResult, type PostedSandboxToHost, type SandboxToHost, type SerializedError } from './protocol'
import { createRuntime, type ModelCallResult, type SandboxRuntime } from './runtime'
import { readBatch, runToolBatch, type CallStarter } from './tool-batch'
import { serializeError } from './user-errors'
import { createTextPartStore, isTextPartsRef, postTextNow, TEXT_PART_CHARS, type TextPartStore } from './text-parts'

/** Options of {@link createWorkerDispatch}. */
export interface DispatchOptions {
  /**
   * Labels the code of each tool call of a batch as `requestId#index` while it runs (see
   * node-call-tracker.ts), so the host can tell which call blocks the worker.
   */
  track?: { open(beforeSwitch?: () => void): () => void; run<T>(label: string, work: () => T): T }
}

/**
 * A model output as the host receives it: a native assistant message becomes its raw text (OpenAI
 * Chat wire JSON, exactly what the engine logs for it, see `rawOutput`), written here in the
 * worker. The engine reads nothing else of it, and a message of 100 000 tool calls or of 10 MB
 * of arguments cost the page its structured clone, a check of its shape and a pretty-print.
 */
function asRaw(result: ModelCallResult): ModelCallResult {
  if (!result.ok || result.output.kind === 'text') return result
  try {
    const output: ModelOutput = { kind: 'text', raw: writeOpenAIAssistant(result.output.message) }
    return { ok: true, output }
  } catch (error) {
    // Only when code left running after a call replaced a built-in the writer uses.
    return { ok: false, error: serializeError(error) }
  }
}

/**
 * Creates the handler for messages arriving from the host. Posts `{type:'ready'}` as soon as the
 * runtime is there (at once for the default V8 runtime): the host starts call timers only after
 * it, so worker boot time never counts against a call.
 * @param post - sends one message to the host.
 * @param runtime - the runtime to serve (default: {@link createRuntime} in this realm), or a promise
 *   of it (the browser's QuickJS VM loads its wasm first). When the promise rejects, the worker
 *   reports `crashed` and serves nothing.
 * @param options - see {@link DispatchOptions}.
 * @returns a function to call with each received message's data. It never throws.
 */
export function createWorkerDispatch(
  post: (message: PostedSandboxToHost) => void,
  runtime: SandboxRuntime | Promise<SandboxRuntime> = createRuntime(),
  options: DispatchOptions = {},
): (data: unknown) => void {
  if (runtime instanceof Promise) {
    // The host sends nothing before `ready`; anything that comes early waits for the runtime.
    let serve: ((data: unknown) => void) | undefined
    const early: unknown[] = []
    runtime.then(
      (ready) => {
        serve = serveRuntime(post, ready, options)
        for (const data of early.splice(0)) serve(data)
      },
      (error: unknown) => post({ type: 'crashed', outOfMemory: false, reason: `The sandbox runtime failed to start: ${serializeError(error).message}` }),
    )
    return (data) => (serve ? serve(data) : void early.push(data))
  }
  return serveRuntime(post, runtime, options)
}

/** Runs `work` (one runtime operation) under the host's timeout, when the runtime can interrupt code. */
function within<T>(runtime: SandboxRuntime, timeoutMs: number | undefined, work: () => T): T {
  return runtime.budget ? runtime.budget(timeoutMs, work) : work()
}

/**
 * `result` with a long text (a tool that returned megabytes) posted ahead in parts and named in
 * its place (see text-parts.ts); `result` itself otherwise.
 */
function withLongResultApart(result: BatchResult, post: (message: PostedSandboxToHost) => void): BatchResult | PostedBatchResult {
  if (!result.result.ok || result.result.result.length <= TEXT_PART_CHARS) return result
  return { ...result, result: { ok: true, result: postTextNow(result.result.result, post) } }
}

/**
 * `data` with its long text put back where a reference to its parts stands (see text-parts.ts): a
 * model or route request's appended messages, a tool batch's calls, a summarize request's result;
 * or the error when the parts
 * did not all arrive. Reads unchecked data: only the reference's own shape is trusted, the
 * schema checks the rest afterwards.
 */
function withTextJoined(data: unknown, store: TextPartStore): { data: unknown; error?: undefined } | { error: string; requestId: string | undefined } {
  type Shape = { type?: unknown; requestId?: unknown; calls?: unknown; result?: unknown; request?: { conversation?: { append?: unknown } } }
  const shaped = typeof data === 'object' && data !== null ? (data as Shape) : undefined
  if (!shaped) return { data }
  const failed = (error: string) => ({ error, requestId: typeof shaped.requestId === 'string' ? shaped.requestId : undefined })
  // A batch's calls, or the result a summarize request carries.
  const field = shaped.type === 'execute-tools' ? 'calls' : shaped.type === 'summarize' ? 'result' : undefined
  if (field !== undefined) {
    const ref = shaped[field]
    if (!isTextPartsRef(ref)) return { data }
    const claimed = store.claim(ref)
    return claimed.ok ? { data: { ...shaped, [field]: claimed.text } } : failed(claimed.error)
  }
  const request = typeof shaped.request === 'object' && shaped.request !== null ? shaped.request : undefined
  const conversation = typeof request?.conversation === 'object' && request.conversation !== null ? request.conversation : undefined
  if (!conversation || !isTextPartsRef(conversation.append)) return { data }
  const claimed = store.claim(conversation.append)
  if (!claimed.ok) return failed(claimed.error)
  return { data: { ...shaped, request: { ...request, conversation: { ...conversation, append: claimed.text } } } }
}

function serveRuntime(post: (message: PostedSandboxToHost) => void, runtime: SandboxRuntime, options: DispatchOptions): (data: unknown) => void {
  const { track } = options
  /**
   * Posts the reply `make` builds from `work`'s result. The runtime never rejects, but if it ever
   * did the host must still get an answer at once (not wait for the timeout), and a Node worker
   * must not die of an unhandled rejection.
   */
  const answer = <T>(work: () => Promise<T>, make: (result: T) => PostedSandboxToHost, failed: (error: SerializedError) => SandboxToHost): void => {
    let pending: Promise<T>
    try {
      pending = work()
    } catch (error) {
      post(failed(serializeError(error)))
      return
    }
    void pending.then(
      (result) => post(make(result)),
      (error: unknown) => post(failed(serializeError(error))),
    )
  }
  const textParts = createTextPartStore()
  post({ type: 'ready' })
  return (data) => {
    // Reading the request uses zod and the built-ins: code that ran outside any call (a timer) may have changed them.
    const changes = runtime.restoreBuiltins?.() ?? []
    if (changes.length > 0) {
      post({ type: 'protocol-error', message: `User code running outside any call (a timer or a callback) ${changes.join(', ')}; the sandbox put the built-ins back.` })
    }
    const joined = withTextJoined(data, textParts)
    if (joined.error !== undefined) {
      post({ type: 'protocol-error', requestId: joined.requestId, message: joined.error })
      return
    }
    const parsed = hostToSandboxSchema.safeParse(joined.data)
    if (!parsed.success) {
      const requestId =
        typeof data === 'object' && data !== null && 'requestId' in data && typeof data.requestId === 'string' ? data.requestId : undefined
      post({ type: 'protocol-error', requestId, message: `Malformed request: ${parsed.error.message}` })
      return
    }
    const message = parsed.data
    switch (message.type) {
      case 'text-part':
        textParts.add(message.key, message.text)
        return
      case 'load':
        post({ type: 'loaded', requestId: message.requestId, result: within(runtime, message.timeoutMs, () => runtime.load(message.file, message.source)) })
        return
      case 'call-model': {
        const { requestId } = message
        // The runtime keeps the conversation: the request carries only what changed since the last one.
        answer(
          () => within(runtime, message.timeoutMs, () => runtime.callModel(message.request)),
          (result): PostedSandboxToHost => {
            const written = asRaw(result)
            // A long output goes ahead in parts: the page reads each in a task of its own.
            if (!written.ok || written.output.kind !== 'text' || written.output.raw.length <= TEXT_PART_CHARS) return { type: 'model-result', requestId, result: written }
            return { type: 'model-result', requestId, result: { ok: true, output: { kind: 'text', raw: postTextNow(written.output.raw, post) } } }
          },
          (error) => ({ type: 'model-result', requestId, result: { ok: false, error } }),
        )
        return
      }
      case 'execute-tool': {
        const { requestId } = message
        answer(
          () => within(runtime, message.timeoutMs, () => runtime.executeTool(message.name, message.arguments, message.callId)),
          (result) => ({ type: 'tool-result', requestId, result }),
          (error) => ({ type: 'tool-result', requestId, result: { ok: false, error } }),
        )
        return
      }
      case 'execute-tools': {
        const { requestId } = message
        const batch = readBatch(message.calls)
        if (!batch.ok) {
          post({ type: 'protocol-error', requestId, message: batch.error })
          return
        }
        // A lone call is blamed rightly without labels; only batches of several pay for them.
        let reportPending = () => {}
        const close = track && batch.calls.length > 1 ? track.open(() => reportPending()) : undefined
        const startCall: CallStarter | undefined = close && track && ((index, start) => track.run(`${requestId}#${index}`, start))
        runToolBatch(
          runtime,
          batch.calls,
          (update) => {
            if (update.done) close?.()
            post({ type: 'tool-results', requestId, ...update, results: update.results.map((result) => withLongResultApart(result, post)) })
          },
          startCall,
          (report) => (reportPending = report),
        )
        return
      }
      case 'route': {
        const { requestId } = message
        answer(
          () => within(runtime, message.timeoutMs, () => runtime.callRoute(message.request)),
          (result) => ({ type: 'route-result', requestId, result }),
          (error) => ({ type: 'route-result', requestId, result: { ok: false, error } }),
        )
        return
      }
      case 'summarize': {
        const { requestId } = message
        answer(
          () => within(runtime, message.timeoutMs, () => runtime.callSummarize(message.result, { tool: message.tool, maxChars: message.maxChars })),
          (result) => ({ type: 'summarize-result', requestId, result }),
          (error) => ({ type: 'summarize-result', requestId, result: { ok: false, error } }),
        )
        return
      }
      case 'run-code': {
        const { requestId } = message
        answer(
          () =>
            within(runtime, message.timeoutMs, () => runtime.runCode(message.code, { maxOutputChars: message.maxOutputChars }, (progress) =>
              post(
                progress.kind === 'output'
                  ? { type: 'code-progress', requestId, output: progress.text, truncated: progress.truncated }
                  : { type: 'code-progress', requestId, call: progress.call },
              ),
            )),
          (result) => ({ type: 'code-result', requestId, result }),
          (error) => ({ type: 'code-result', requestId, result: { ok: false, output: '', truncated: false, error: `${error.name}: ${error.message}`, calls: [] } }),
        )
        return
      }
    }
  }
}
