/**
 * The host side of the sandbox, shared by the browser (Web Worker) and Node (worker_threads):
 * request/reply bookkeeping, the hard per-call timeout, and terminate-and-respawn.
 *
 * A timeout is enforced by killing the worker, not by asking it to stop: that is the only way to
 * stop `while (true) {}` or `await new Promise(() => {})`. The fresh worker gets the last loaded
 * sources again, so the next call finds the same tools.
 */
import type { CodeOutcome, CodeRunner, CodeToolCall, Model, ModelOutput, ModelRequest, ResultSummarizer, ToolExecutor, ToolOutcome, ToolRouter } from '../core/loop/index'
import { nextTask } from '../core/loop/index'
import type { ToolCall } from '../core/messages'
import { DEFAULT_TOOL_TIMEOUT_MS, type ToolSpec } from '../core/tools/types'
import {
  sandboxToHostSchema,
  type Hooks,
  type HostToSandbox,
  type PostedModelRequest,
  type LoadedTool,
  type SandboxToHost,
  type SerializedError,
  type SourceError,
  type SourceFile,
} from './protocol'
import { errorMessage } from '../core/util'
import { resolveToolName } from '../core/validation'
import { formatSandboxError, isSandboxErrorName, SANDBOX_ERROR_NAMES } from './error-names'
import { createRequestClient, type RequestClient, type Settled } from './request-client'
import { createRequestEncoder, postTextParts, type RequestEncoder } from './request-wire'
import { createTextPartStore, joinPostedParts, postInTextParts, TEXT_PART_CHARS } from './text-parts'
import { createToolBatchQueue, type ToolBatchQueue } from './tool-batch-host'
import { RECEIVED_LABEL } from './protocol'

/** Default hard timeout of one model call, ms. */
export const DEFAULT_MODEL_TIMEOUT_MS = 10_000
/** Default hard timeout of loading one file (its top-level code), ms. */
export const DEFAULT_LOAD_TIMEOUT_MS = 10_000
/** Default time a worker may take to boot and post `ready`, ms (generous: dev servers transform on first load). */
export const DEFAULT_BOOT_TIMEOUT_MS = 15_000

/** The user code to load. `model` may be omitted when only tools are needed (e.g. replay). */
export interface SandboxSources {
  /** Source of `tools.ts`. */
  tools: string
  /** Source of `model.ts`. */
  model?: string
}

/**
 * Outcome of {@link Sandbox.load}. `tools` holds whatever loaded (empty when `tools.ts` failed);
 * `hasModel` says whether `model.ts` has a usable default export; `hooks` which of the optional
 * `route` / `summarize` hooks `tools.ts` exports. On failure `errors` has one located error per
 * file that failed (`tools.ts` first) and `error` is the first of them.
 */
export type LoadResult =
  | { ok: true; tools: LoadedTool[]; hasModel: boolean; hooks: Hooks }
  | { ok: false; tools: LoadedTool[]; hasModel: boolean; hooks: Hooks; error: SourceError; errors: SourceError[] }

const NO_HOOKS: Hooks = { route: false, summarize: false }

function loadFailed(tools: LoadedTool[], hasModel: boolean, hooks: Hooks, first: SourceError, rest: SourceError[]): LoadResult {
  return { ok: false, tools, hasModel, hooks, error: first, errors: [first, ...rest] }
}

/**
 * Runs user code off the main thread. Implements the engine's `Model`, `ToolExecutor`,
 * `ToolRouter` (the `route` hook), `ResultSummarizer` (the `summarize` hook) and `CodeRunner`
 * (code-as-action).
 */
export interface Sandbox extends Model, ToolExecutor, ToolRouter, ResultSummarizer, CodeRunner {
  /**
   * Starts a fresh worker and loads `sources` into it (stopping the previous worker and failing
   * its in-flight calls). Resolves with the loaded tools or the located errors; rejects only when
   * the worker itself cannot start.
   */
  load(sources: SandboxSources): Promise<LoadResult>
  /**
   * Calls `model.ts`. Rejects with an `Error` whose message is shown to the user when the model
   * throws, returns something that is not a model output, or exceeds the model timeout. A native
   * assistant message comes back as its raw text (`kind: 'text'`, OpenAI Chat wire JSON, what the
   * engine logs for it), written in the worker so the page never clones or prints a huge one.
   */
  respond(request: ModelRequest): Promise<ModelOutput>
  /**
   * Runs one tool call under its timeout (`spec.timeoutMs`, else the tool's own, else 5000 ms).
   * Never rejects: errors and timeouts are `{ ok: false }` outcomes whose `error` is written back to the model.
   */
  execute(call: ToolCall, spec: ToolSpec): Promise<ToolOutcome>
  /**
   * Calls `export function route({ messages, tools, step, protocol })` of tools.ts and resolves
   * with the canonical names of the tools to offer (aliases resolved, a namespace name expanded to
   * its tools), or `null` when tools.ts exports no `route`. Rejects with an `Error` when the hook
   * throws, returns something other than an array of strings, returns unknown names (the message
   * names them), or exceeds the model timeout (the worker is then restarted).
   */
  route(request: ModelRequest): Promise<string[] | null>
  /**
   * Calls `export function summarize(result, { tool, maxChars })` of tools.ts and resolves with
   * its string, or `null` when tools.ts exports no `summarize`. `maxChars` is in characters.
   * Rejects with an `Error` when the hook throws, returns a non-string, or exceeds the model timeout.
   */
  summarize(result: string, context: { tool: string; maxChars: number }): Promise<string | null>
  /**
   * Runs a code-as-action block (TypeScript allowed) with only the loaded tools in scope as async
   * functions and a capturing `console`. `timeoutMs` (ms) bounds the whole block: when it is
   * exceeded the worker is killed and restarted, and the outcome has `timedOut: true` with the
   * output and calls captured until then. `maxOutputChars` caps the captured output (characters).
   * Never rejects.
   */
  runCode(code: string, options: { timeoutMs: number; maxOutputChars: number }): Promise<CodeOutcome>
  /** Stops the worker. Later calls fail; pending ones settle with an error. Idempotent. */
  dispose(): void
}

/** Options shared by both sandbox flavours. All durations in ms. */
export interface SandboxOptions {
  /** Tool timeout when neither the call's spec nor the tool sets one. Default 5000. */
  toolTimeoutMs?: number
  /** Model call timeout. Default 10000. */
  modelTimeoutMs?: number
  /** Timeout for evaluating one file's top-level code. Default 10000. */
  loadTimeoutMs?: number
  /** Time allowed for a worker to post `ready`. Default 15000. */
  bootTimeoutMs?: number
  /** Monotonic clock for `durationMs`, ms. Default `performance.now`. */
  now?: () => number
  /** Called with errors the worker reports outside any call (e.g. thrown from a stray timer). */
  onStrayError?: (message: string) => void
  /**
   * Called once each time user code runs the sandbox out of memory, with the message that names
   * the file and phase (`tools.ts ran out of memory (limit 512 MB) while running tool "x" …`),
   * after the call or load it ended has been answered with that message.
   */
  onOutOfMemory?: (message: string) => void
}


/** The minimum a worker must offer; one adapter per platform. */
export interface WorkerEndpoint {
  /** Sends one message to the worker over its private channel. */
  post(message: HostToSandbox): void
  /** Stops the worker immediately. */
  terminate(): void
  /**
   * The label (`requestId#index`) of the batch call whose code the worker ran last, readable
   * while the worker is blocked; absent where the platform cannot tell (the browser's VM
   * interrupts a blocking call itself).
   */
  runningCall?(): string | undefined
  /**
   * Called when code ran past its timeout: resolves true once the worker has run out of memory
   * (its crash is then reported through `WorkerEvents.error` first), false at once or as soon as
   * its memory stops growing toward the cap. Lets a memory bomb that reached its timeout before its
   * memory cap be reported as running out of memory. Absent where the platform cannot tell.
   */
  outOfMemoryVerdict?(): Promise<boolean>
}

/** Why a worker ended on its own, when the platform can tell. */
export interface WorkerCrash {
  /** True when it ran out of memory (its heap cap, or its process was killed for memory). */
  outOfMemory: boolean
  /** The heap cap it ran under, MB, when known. */
  limitMb?: number
  /**
   * When it failed while no call was running: the file whose code was still running, and after
   * what (`after its top-level code ended`, `after tool "x" returned`): an async loop a load or a
   * call left behind. The message then names it rather than the call that came next.
   */
  leftBy?: CrashLeftBy
}

/** See {@link WorkerCrash.leftBy}. */
export interface CrashLeftBy {
  file: SourceFile | 'The code block'
  after: string
}

/** Callbacks an endpoint reports to. */
export interface WorkerEvents {
  /** A message arrived on the private channel (unvalidated). */
  message(data: unknown): void
  /**
   * An error was reported. `fatal` means the worker is gone (it cannot answer any pending call);
   * `crash` says why, when known.
   */
  error(message: string, fatal: boolean, crash?: WorkerCrash): void
}

/** Starts one worker wired to `events`. */
export type SpawnWorker = (events: WorkerEvents) => WorkerEndpoint

interface Live {
  endpoint: WorkerEndpoint
  client: RequestClient<HostToSandbox, SandboxToHost>
  /** What this worker holds of the conversation, so model and route requests send only what is new. */
  requests: RequestEncoder
  /** Tool calls on their way to this worker, sent as batches. */
  batches: ToolBatchQueue
  ready: Promise<void>
  /** Last load on this worker (it also resolves once the worker is usable). */
  loaded: Promise<LoadResult>
  alive: boolean
  /** Cleared on stop so a dead worker's boot timer never keeps a Node process alive. */
  bootTimer: ReturnType<typeof setTimeout> | undefined
  /** Rejects `ready` if the worker is stopped before it booted, so nothing waits on it forever. */
  abortBoot(reason: string): void
  /** Set when the worker died on its own; `inFlight` is how many requests it took down. */
  crash: (WorkerCrash & { inFlight: number }) | undefined
  /** True once `onOutOfMemory` heard about `crash`. */
  crashReported: boolean
  /** Whose code answered last (`tool "x" (call c1)`): what it left running is its own. */
  lastAnswered?: string
}

function formatError(error: SerializedError): string {
  return formatSandboxError(error)
}

/** An `Error` for a hook failure: `route() in tools.ts threw TypeError: …`, or the runtime's own message. */
function hookError(hook: string, error: SerializedError): Error {
  const own = isSandboxErrorName(error.name)
  const result = new Error(own ? error.message : `${hook} in tools.ts threw ${formatError(error)}`)
  if (error.stack) result.stack = error.stack
  // The runtime's own finding keeps its phrase, which the loop's event carries for the UI.
  return own && error.phrase ? Object.assign(result, { phrase: error.phrase }) : result
}

/**
 * `tools.ts ran out of memory (limit 512 MB) while running tool "x" and was stopped.` — which
 * file, which phase, and the cap when the platform has one.
 */
export function outOfMemoryMessage(file: SourceFile | 'The code block', phase: string, crash: WorkerCrash & { inFlight?: number }): string {
  const limit = crash.limitMb === undefined ? '' : ` (limit ${crash.limitMb} MB)`
  if (crash.leftBy) return `${crash.leftBy.file} ran out of memory${limit} in code still running ${crash.leftBy.after}, and was stopped.`
  const others = crash.inFlight !== undefined && crash.inFlight > 1 ? ` (${crash.inFlight - 1} other call${crash.inFlight > 2 ? 's were' : ' was'} running in the same sandbox)` : ''
  return `${file} ran out of memory${limit} ${phase}${others} and was stopped.`
}

/**
 * Creates a sandbox host over workers made by `spawn`. Platform entry points
 * (`createBrowserSandbox`, `createNodeSandbox`, `createProcessSandbox`) supply `spawn`.
 */
export function createSandboxHost(spawn: SpawnWorker, options: SandboxOptions = {}): Sandbox {
  const toolTimeoutMs = options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS
  const modelTimeoutMs = options.modelTimeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS
  const loadTimeoutMs = options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS
  const bootTimeoutMs = options.bootTimeoutMs ?? DEFAULT_BOOT_TIMEOUT_MS
  const now = options.now ?? (() => performance.now())

  let live: Live | undefined
  let sources: SandboxSources | undefined
  /** Set when loading hung or ran out of memory: respawning would do it again, so calls fail with this instead. */
  let loadFailure: LoadResult | undefined
  let disposed = false

  function stop(target: Live, reason: string): void {
    if (!target.alive) return
    target.alive = false
    clearTimeout(target.bootTimer)
    target.abortBoot(reason)
    target.endpoint.terminate()
    target.client.stop(reason)
    if (live === target) live = undefined
  }

  function spawnLive(): Live {
    let resolveReady!: () => void
    let rejectReady!: (error: Error) => void
    const ready = new Promise<void>((resolve, reject) => {
      resolveReady = resolve
      rejectReady = reject
    })
    let isReady = false
    const target: Live = {
      endpoint: undefined as unknown as WorkerEndpoint,
      client: createRequestClient<HostToSandbox, SandboxToHost>({
        post: (message) => target.endpoint.post(message),
        schema: sandboxToHostSchema,
        requestIdOf: (message) => (message.type === 'ready' || message.type === 'crashed' ? undefined : message.requestId),
        isInterim: (message) => message.type === 'code-progress' || (message.type === 'tool-results' && !message.done),
        onUnmatched({ message, malformed }) {
          if (message?.type === 'protocol-error') options.onStrayError?.(message.message)
          else if (malformed !== undefined) options.onStrayError?.(`Malformed message from the sandbox: ${malformed}`)
        },
      }),
      requests: createRequestEncoder(),
      batches: createToolBatchQueue({
        send: (make, onInterim) => request(target, make, undefined, onInterim),
        postTextPart: (part) => target.endpoint.post(part),
        running: () => target.endpoint.runningCall?.(),
        outOfMemoryVerdict: () => (target.endpoint.outOfMemoryVerdict ? outOfMemoryAfterTimeout(target) : undefined),
        timedOut: (call) =>
          killAndRespawn(
            target,
            `Interrupted by the timeout of call ${call.callId} ("${call.name}"), which shared its sandbox; it was not run again, because it may already have had effects.`,
          ),
        now,
      }),
      ready,
      loaded: Promise.resolve({ ok: true, tools: [], hasModel: false, hooks: NO_HOOKS }),
      alive: true,
      bootTimer: undefined,
      abortBoot: (reason) => rejectReady(new Error(reason)),
      crash: undefined,
      crashReported: false,
    }
    const bootTimer = setTimeout(() => {
      rejectReady(new Error(`The sandbox worker did not start within ${bootTimeoutMs} ms.`))
      stop(target, 'The sandbox worker did not start.')
    }, bootTimeoutMs)
    target.bootTimer = bootTimer
    // Parts of long outputs this worker posted ahead of their results (see text-parts.ts).
    const outputParts = createTextPartStore()
    try {
      target.endpoint = spawn({
        message(data) {
          if (!target.alive) return
          if (!isReady && typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'ready') {
            isReady = true
            clearTimeout(bootTimer)
            resolveReady()
            return
          }
          const joined = joinPostedParts(data, outputParts)
          if (joined !== undefined) target.client.receive(joined)
        },
        error(message, fatal, crash) {
          if (!target.alive) return
          if (!isReady) {
            clearTimeout(bootTimer)
            rejectReady(new Error(`The sandbox worker failed to start: ${message}`))
            stop(target, `The sandbox worker failed to start: ${message}`)
          } else if (fatal) {
            if (crash) target.crash = { ...crash, inFlight: target.client.pendingCount }
            stop(
              target,
              crash?.outOfMemory
                ? `The sandbox ran out of memory${crash.limitMb === undefined ? '' : ` (limit ${crash.limitMb} MB)`} and was stopped.`
                : `The sandbox worker stopped unexpectedly: ${message}`,
            )
          } else {
            options.onStrayError?.(message)
          }
        },
      })
    } catch (error) {
      clearTimeout(bootTimer)
      throw error
    }
    // A rejected boot is reported through `load`/calls; don't let it surface as unhandled here.
    ready.catch(() => undefined)
    return target
  }

  /** Posts the request once the worker is ready, and races the reply against `timeoutMs` when given (timer starts at post). */
  async function request(
    target: Live,
    make: (requestId: string) => HostToSandbox,
    timeoutMs: number | undefined,
    onInterim?: (message: SandboxToHost) => void,
  ): Promise<Settled<SandboxToHost>> {
    await target.ready
    if (!target.alive) return { status: 'stopped', reason: 'The sandbox was stopped.' }
    return target.client.send(make, { ...(timeoutMs === undefined ? {} : { timeoutMs }), ...(onInterim ? { onInterim } : {}) })
  }

  async function loadInto(target: Live, next: SandboxSources): Promise<LoadResult> {
    await target.ready
    const errors: SourceError[] = []
    let tools: LoadedTool[] = []
    let hasModel = false
    let hooks = NO_HOOKS
    const files: [SourceFile, string][] = [['tools.ts', next.tools]]
    if (next.model !== undefined) files.push(['model.ts', next.model])
    const giveUp = (error: SourceError): LoadResult => {
      errors.push(error)
      const [first, ...rest] = errors as [SourceError, ...SourceError[]]
      const result = loadFailed(tools, hasModel, hooks, first, rest)
      loadFailure = result
      return result
    }
    for (const [file, source] of files) {
      const reply = await request(target, (requestId) => ({ type: 'load', requestId, timeoutMs: loadTimeoutMs, file, source }), loadTimeoutMs)
      if (reply.status === 'timeout' && (await outOfMemoryAfterTimeout(target)) && target.crash) {
        const message = outOfMemoryMessage(file, 'while running its top-level code', target.crash)
        reportOutOfMemory(target, message)
        return giveUp({ file, message })
      }
      if (reply.status === 'timeout') {
        stop(target, `${file} did not finish loading.`)
        return giveUp({
          file,
          message: `${file} did not finish loading within ${loadTimeoutMs} ms and was stopped (is there an endless loop at the top level?).`,
        })
      }
      if (reply.status === 'stopped' && target.crash?.outOfMemory) {
        const message = outOfMemoryMessage(file, 'while running its top-level code', target.crash)
        reportOutOfMemory(target, message)
        return giveUp({ file, message })
      }
      if (reply.status === 'stopped' && target.crash) {
        // The code ended the sandbox itself (process.exit, a signal) as it loaded: say which file, not a stack.
        const how = reply.reason.replace(/^The sandbox worker stopped unexpectedly: /, '')
        return giveUp({ file, message: `${file} stopped the sandbox while running its top-level code (${how}).` })
      }
      if (reply.status !== 'reply') throw new Error(reply.reason)
      if (reply.message.type !== 'loaded') throw new Error(`Unexpected reply "${reply.message.type}" to a load request.`)
      if (reply.message.result.ok) {
        tools = reply.message.result.tools
        hasModel = reply.message.result.hasModel
        hooks = reply.message.result.hooks
      } else {
        errors.push(reply.message.result.error)
      }
    }
    const [first, ...rest] = errors
    return first === undefined ? { ok: true, tools, hasModel, hooks } : loadFailed(tools, hasModel, hooks, first, rest)
  }

  function start(next: SandboxSources): Live {
    const target = spawnLive()
    live = target
    target.loaded = loadInto(target, next)
    // Failures are delivered to whoever awaits `loaded`; keep the respawn path from raising unhandled rejections.
    target.loaded.catch(() => undefined)
    return target
  }

  /** The worker to run a call on: the live one, or a fresh one reloaded with the last sources. */
  function failureText(): string | undefined {
    const failure: LoadResult | undefined = loadFailure
    if (!failure) return undefined
    return failure.ok ? 'The sandbox is not loaded.' : failure.errors.map((error) => error.message).join(' ')
  }

  async function usable(): Promise<Live | string> {
    if (disposed) return 'The sandbox was disposed.'
    const failed = failureText()
    if (failed !== undefined) return failed
    if (!sources) return 'Nothing is loaded in the sandbox yet.'
    let target: Live
    try {
      target = live ?? start(sources)
      await target.loaded
      // A respawned worker's load may have hung or run out of memory; that is final.
      const failedNow = failureText()
      if (failedNow !== undefined) return failedNow
    } catch (error) {
      return errorMessage(error)
    }
    return target.alive ? target : 'The sandbox was stopped.'
  }

  /** Kills `target` after a timeout and starts its replacement right away, so the next call waits less. */
  function killAndRespawn(target: Live, reasonForOthers: string): void {
    stop(target, reasonForOthers)
    if (!disposed && sources && !loadFailure) start(sources)
  }

  /** The error of a call whose worker stopped under it: out of memory, or why it was stopped. */
  function stoppedError(target: Live, reply: { reason: string }, file: SourceFile | 'The code block', phase: string): string {
    if (!target.crash?.outOfMemory) return reply.reason
    const message = outOfMemoryMessage(file, phase, target.crash)
    reportOutOfMemory(target, message)
    return message
  }

  /**
   * After code passed its timeout: true when `target` ran out of memory meanwhile (see
   * `WorkerEndpoint.outOfMemoryVerdict`); its crash has then been recorded and its calls stopped.
   */
  async function outOfMemoryAfterTimeout(target: Live): Promise<boolean> {
    const verdict = target.endpoint.outOfMemoryVerdict
    if (!verdict || !target.alive) return false
    return (await verdict()) && target.crash?.outOfMemory === true
  }

  /**
   * After request `requestId` timed out: who left code running that kept the worker from taking it
   * in (`lastAnswered`), when the worker's label says it never did; undefined when it did, or the
   * platform cannot tell. The child writes `received:<requestId>` as it takes each request in.
   */
  function neverTakenIn(target: Live, requestId: string): string | undefined {
    if (!target.endpoint.runningCall || target.lastAnswered === undefined) return undefined
    return target.endpoint.runningCall() === `${RECEIVED_LABEL}${requestId}` ? undefined : target.lastAnswered
  }

  /**
   * `modelRequest` for `target`'s worker: written in slices, its long text posted ahead in parts
   * (see text-parts.ts), so neither the writing nor the one structured clone holds the page.
   */
  async function encodeAndPost(target: Live, modelRequest: ModelRequest): Promise<PostedModelRequest> {
    const encoded = await target.requests.encodeInSlices(modelRequest, nextTask)
    return postTextParts(encoded, (part) => target.endpoint.post(part), nextTask)
  }

  /** Tells `onOutOfMemory` once per crashed worker (several calls may end with it). */
  function reportOutOfMemory(target: Live, message: string): void {
    if (target.crashReported) return
    target.crashReported = true
    options.onOutOfMemory?.(message)
  }

  /** Unexpected, invalid and stopped replies as one error text; `undefined` for a proper reply. */
  function notAReply(reply: Settled<SandboxToHost>): string | undefined {
    if (reply.status === 'invalid' || reply.status === 'stopped') return reply.reason
    return undefined
  }

  return {
    async load(next) {
      if (disposed) throw new Error('The sandbox was disposed.')
      if (live) stop(live, 'The sandbox was reloaded.')
      sources = { ...next }
      loadFailure = undefined
      return start(sources).loaded
    },

    async respond(modelRequest) {
      const target = await usable()
      if (typeof target === 'string') throw new Error(target)
      let modelRequestId = ''
      const posted = await encodeAndPost(target, modelRequest)
      const reply = await request(target, (requestId) => {
        modelRequestId = requestId
        return { type: 'call-model', requestId, timeoutMs: modelTimeoutMs, request: posted }
      }, modelTimeoutMs)
      // The worker may not have taken the conversation in (a failed call may be one out of step with
      // it): send it whole next time.
      if (reply.status !== 'reply' || reply.message.type !== 'model-result' || !reply.message.result.ok) target.requests.reset()
      if (reply.status === 'timeout' && (await outOfMemoryAfterTimeout(target))) throw new Error(stoppedError(target, { reason: '' }, 'model.ts', `while answering turn ${modelRequest.step + 1}`))
      if (reply.status === 'timeout') {
        const leftBy = neverTakenIn(target, modelRequestId)
        killAndRespawn(target, 'The model call timed out, so the sandbox was restarted.')
        if (leftBy !== undefined) {
          throw new Error(`The sandbox was still busy with code ${leftBy} left running after it returned (a microtask or promise loop), so model.ts never got turn ${modelRequest.step + 1} within ${modelTimeoutMs} ms; the sandbox was restarted.`)
        }
        throw new Error(`Model timed out after ${modelTimeoutMs} ms and was stopped.`)
      }
      if (reply.status === 'stopped') throw new Error(stoppedError(target, reply, 'model.ts', `while answering turn ${modelRequest.step + 1}`))
      const failed = notAReply(reply)
      if (failed !== undefined || reply.status !== 'reply') throw new Error(failed)
      const message = reply.message
      if (message.type === 'protocol-error') throw new Error(`The sandbox could not read the model request: ${message.message}`)
      if (message.type !== 'model-result') throw new Error(`Unexpected reply "${message.type}" to a model call.`)
      target.lastAnswered = `model.ts (turn ${modelRequest.step + 1})`
      if (message.result.ok) {
        const output = message.result.output as ModelOutput
        // A reply of megabytes was read (its structured clone) in this task: the engine's work on
        // it, and the page's drawing of it, start in the next one, so the two never add up.
        if (output.kind === 'text' && output.raw.length > TEXT_PART_CHARS) await nextTask()
        return output
      }
      if (message.result.error.name === SANDBOX_ERROR_NAMES.interrupted) {
        throw new Error(`Model timed out after ${modelTimeoutMs} ms and was stopped. ${message.result.error.message}`)
      }
      const failure = message.result.error
      const error = new Error(formatError(failure))
      if (failure.stack) error.stack = failure.stack
      return Promise.reject(isSandboxErrorName(failure.name) && failure.phrase ? Object.assign(error, { phrase: failure.phrase }) : error)
    },

    async execute(call, spec) {
      const started = now()
      const elapsed = () => Math.max(0, Math.round(now() - started))
      const target = await usable()
      if (typeof target === 'string') return { ok: false, error: target, durationMs: elapsed(), timedOut: false }
      const loaded = await target.loaded
      // The engine resolves names the model wrote loosely (`getWeather`) and passes the tool's spec:
      // run that tool. A name the engine did not resolve goes through as written (and fails there).
      const byName = (name: string) => resolveToolName(name, loaded.tools, { match: 'declared' })?.spec
      const own = byName(spec.name) ?? byName(call.name)
      const name = own?.name ?? call.name
      const timeoutMs = spec.timeoutMs ?? own?.timeoutMs ?? toolTimeoutMs
      const callStarted = now()
      const outcome = await target.batches.enqueue({ callId: call.id, name, arguments: call.arguments, timeoutMs })
      const hostDuration = Math.max(0, Math.round(now() - callStarted))
      switch (outcome.kind) {
        case 'timeout':
          // The other calls in flight die with the worker. They are reported, never run again: a
          // tool like send_email may already have done its work before it was stopped.
          return { ok: false, error: `Tool "${name}" timed out after ${timeoutMs} ms and was stopped.`, durationMs: outcome.durationMs, timedOut: true }
        case 'stopped':
          if (outcome.notStarted) {
            // The worker said it had not begun this call when it was stopped: nothing ran, so the
            // user can tell it apart from the calls that may have had effects.
            const by = outcome.blamedCallId === undefined ? 'the sandbox stopped' : `call ${outcome.blamedCallId} ("${outcome.blamed ?? ''}") stopped the sandbox`
            return { ok: false, error: `Not run: ${by} before this call started, so it had no effects.`, durationMs: hostDuration, timedOut: false, interrupted: true }
          }
          // The call that ran the sandbox out of memory failed by itself; the others were interrupted by it.
          if (outcome.running && target.crash?.outOfMemory) return { ok: false, error: stoppedError(target, outcome, 'tools.ts', `while running tool "${name}"`), durationMs: hostDuration, timedOut: false }
          if (target.crash && !target.crash.outOfMemory) {
            // The worker ended on its own (process.exit, a signal, an abort) while running this call's code, or another's.
            const how = outcome.reason.replace(/^The sandbox worker stopped unexpectedly: /, '')
            if (outcome.running) return { ok: false, error: `Tool "${name}" stopped the sandbox (${how}); the next call runs in a fresh one.`, durationMs: hostDuration, timedOut: false }
            const by = outcome.blamedCallId === undefined ? '' : ` call ${outcome.blamedCallId} ("${outcome.blamed ?? ''}") stopped it`
            return { ok: false, error: `Interrupted: the sandbox stopped (${how})${by ? `;${by}` : ''}. It was not run again, because it may already have had effects.`, durationMs: hostDuration, timedOut: false, interrupted: true }
          }
          return { ok: false, error: stoppedError(target, outcome, 'tools.ts', `while running tool "${outcome.blamed ?? name}"`), durationMs: hostDuration, timedOut: false, interrupted: true }
        case 'invalid':
          return { ok: false, error: outcome.reason, durationMs: hostDuration, timedOut: false }
      }
      const { result, durationMs } = outcome
      target.lastAnswered = `tool "${name}" (call ${call.id})`
      if (!result.ok && result.error.name === SANDBOX_ERROR_NAMES.interrupted) {
        // The sandbox stopped the tool's code itself at its deadline: a timeout, with the worker kept.
        return { ok: false, error: `Tool "${name}" timed out after ${timeoutMs} ms and was stopped. ${result.error.message}`, durationMs, timedOut: true, detail: result.error.message }
      }
      return result.ok ? { ok: true, result: result.result, durationMs } : { ok: false, error: formatError(result.error), durationMs, timedOut: false }
    },

    async route(modelRequest) {
      const target = await usable()
      if (typeof target === 'string') throw new Error(target)
      // No round trip when there is no hook: the engine asks at every decide.
      if (!(await target.loaded).hooks.route) return null
      const posted = await encodeAndPost(target, modelRequest)
      const reply = await request(target, (requestId) => ({ type: 'route', requestId, timeoutMs: modelTimeoutMs, request: posted }), modelTimeoutMs)
      if (reply.status !== 'reply' || reply.message.type !== 'route-result' || !reply.message.result.ok) target.requests.reset()
      if (reply.status === 'timeout') {
        killAndRespawn(target, 'route() timed out, so the sandbox was restarted.')
        throw new Error(`route() in tools.ts timed out after ${modelTimeoutMs} ms and was stopped.`)
      }
      if (reply.status === 'stopped') throw new Error(stoppedError(target, reply, 'tools.ts', 'in route()'))
      const failed = notAReply(reply)
      if (failed !== undefined || reply.status !== 'reply') throw new Error(failed)
      const message = reply.message
      if (message.type === 'protocol-error') throw new Error(`The sandbox could not read the route request: ${message.message}`)
      if (message.type !== 'route-result') throw new Error(`Unexpected reply "${message.type}" to a route call.`)
      if (message.result.ok) return message.result.names
      if (message.result.error.name === SANDBOX_ERROR_NAMES.interrupted) {
        throw new Error(`route() in tools.ts timed out after ${modelTimeoutMs} ms and was stopped. ${message.result.error.message}`)
      }
      throw hookError('route()', message.result.error)
    },

    async summarize(result, context) {
      const target = await usable()
      if (typeof target === 'string') throw new Error(target)
      if (!(await target.loaded).hooks.summarize) return null
      // A result of megabytes goes ahead in parts (see text-parts.ts).
      const posted = await postInTextParts([result], (part) => target.endpoint.post(part), nextTask)
      const reply = await request(
        target,
        (requestId) => ({ type: 'summarize', requestId, timeoutMs: modelTimeoutMs, result: posted, tool: context.tool, maxChars: Math.max(0, Math.floor(context.maxChars)) }),
        modelTimeoutMs,
      )
      if (reply.status === 'timeout') {
        killAndRespawn(target, 'summarize() timed out, so the sandbox was restarted.')
        throw new Error(`summarize() in tools.ts timed out after ${modelTimeoutMs} ms and was stopped.`)
      }
      if (reply.status === 'stopped') throw new Error(stoppedError(target, reply, 'tools.ts', 'in summarize()'))
      const failed = notAReply(reply)
      if (failed !== undefined || reply.status !== 'reply') throw new Error(failed)
      const message = reply.message
      if (message.type !== 'summarize-result') throw new Error(`Unexpected reply "${message.type}" to a summarize call.`)
      if (message.result.ok) return message.result.summary
      if (message.result.error.name === SANDBOX_ERROR_NAMES.interrupted) {
        throw new Error(`summarize() in tools.ts timed out after ${modelTimeoutMs} ms and was stopped. ${message.result.error.message}`)
      }
      throw hookError('summarize()', message.result.error)
    },

    async runCode(code, { timeoutMs, maxOutputChars }) {
      const started = now()
      const elapsed = () => Math.max(0, Math.round(now() - started))
      // What the worker reported so far: the only record left if it has to be killed.
      let output = ''
      let truncated = false
      const calls: CodeToolCall[] = []
      const failed = (error: string, timedOut: boolean): CodeOutcome => ({
        ok: false,
        output,
        error,
        calls: [...calls],
        durationMs: elapsed(),
        timedOut,
        truncated,
      })
      const target = await usable()
      if (typeof target === 'string') return failed(target, false)
      const reply = await request(
        target,
        (requestId) => ({ type: 'run-code', requestId, timeoutMs, code, maxOutputChars: Math.max(0, Math.floor(maxOutputChars)) }),
        timeoutMs,
        (message) => {
          if (message.type !== 'code-progress') return
          if (message.output !== undefined) output += message.output
          if (message.truncated) truncated = true
          if (message.call) calls.push(message.call)
        },
      )
      if (reply.status === 'timeout') {
        killAndRespawn(target, 'Interrupted by the timeout of a code block that shared its sandbox; it was not run again, because it may already have had effects.')
        return failed(`The code did not finish within ${timeoutMs} ms and was stopped.`, true)
      }
      if (reply.status === 'stopped') return failed(stoppedError(target, reply, 'The code block', 'while it ran'), false)
      if (reply.status === 'invalid') return failed(reply.reason, false)
      const message = reply.message
      if (message.type !== 'code-result') return failed(`Unexpected reply "${message.type}" to a code block.`, false)
      const result = message.result
      return {
        ok: result.ok,
        output: result.output,
        ...(result.error === undefined ? {} : { error: result.error }),
        calls: result.calls,
        durationMs: elapsed(),
        timedOut: false,
        truncated: result.truncated,
      }
    },

    dispose() {
      if (disposed) return
      disposed = true
      if (live) stop(live, 'The sandbox was disposed.')
    },
  }
}
