/**
 * The sandbox runtime of the browser, run inside a QuickJS VM compiled to WebAssembly
 * (quickjs-emscripten), inside the sandbox worker.
 *
 * Why: a browser gives a dedicated worker no memory cap of its own, and a worker (or frame) that
 * allocates until V8 gives up takes the whole tab down with it ("Target crashed"). The VM's heap
 * lives in the wasm memory and is capped by `setMemoryLimit`: user code that allocates past it
 * gets `InternalError: out of memory` while the worker and the page stay well. The VM also polls
 * an interrupt handler while it runs, so a synchronous endless loop is stopped at its deadline
 * without killing the worker.
 *
 * What runs inside: the runtime bundle (`vm-entry.ts`, see `scripts/vm-bundle.ts`), i.e. the
 * same `createRuntime()` the Node sandbox runs in V8, with zod and the authoring API. What runs
 * outside, in the worker: sucrase and acorn (called synchronously through {@link VmHost}),
 * timers, `fetch`, and this adapter, which implements {@link SandboxRuntime} by passing JSON text
 * to the bundle's `dispatch`. Replies are built by the runtime in the VM from JSON the worker
 * reads, so user code can neither see the worker's channel nor forge a reply.
 */
import { parse as parseScript } from 'acorn'
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core'
import { transform } from 'sucrase'
import type { ModelRequest } from '../../core/loop/index'
import { getProtocol, type Protocol } from '../../core/protocols/index'
import type { JsonValue } from '../../core/messages'
import { errorMessage } from '../../core/util'
import type { SummarizeContext } from '../authoring'
import { SANDBOX_ERROR_NAMES } from '../error-names'
import type { CodeRunResult, SerializedError, SourceFile, WireModelRequest } from '../protocol'
import type { CodeProgress } from '../run-code'
import type { ExecuteResult, LoadFileResult, ModelCallResult, RouteCallResult, SandboxRuntime, StartedCall, SummarizeCallResult } from '../runtime'
import { locate } from '../user-errors'
import type { CrashLeftBy } from '../sandbox-host'
import { findTopLevelAwait } from '../top-level-await'
import type { VmHost } from './host'
import { nestingProblem } from './nesting'

/** Timers user code may have waiting at once (each is a real timer of the worker). */
export const MAX_TIMERS = 10_000
/** Default memory limit of the VM, MB. */
export const DEFAULT_VM_MEMORY_LIMIT_MB = 256
/**
 * Stack the VM's code may use, KB: deep enough for zod (about 500 frames of user recursion),
 * shallow enough that QuickJS throws its catchable stack-overflow error before the browser's own
 * stack under the wasm code runs out (at 256 KB a worker's stack overflowed first, killing the VM
 * and every call in flight with it).
 */
const MAX_STACK_KB = 96
/** Budget of code that runs while no call is in flight (a stray timer), ms. */
const DEFAULT_STRAY_BUDGET_MS = 5_000
/** After an interrupt, the next one comes this soon if the code still runs (`finally` blocks), ms. */
const INTERRUPT_GRACE_MS = 50
/**
 * Share of the memory limit in use at which code stopped at its deadline is reported as out of
 * memory rather than as a timeout: a Map or typed-array bomb in QuickJS can take longer to fill
 * the VM than its budget, and "timed out" would hide what it was doing.
 */
const NEAR_LIMIT = 2 / 3

/** Why the VM cannot go on: it ran out of memory, or the engine itself failed. */
export interface VmCrash {
  outOfMemory: boolean
  /** The memory limit, MB. */
  limitMb: number
  /** What happened, for logs. */
  message: string
  /** When nothing was running: the load or call whose code was still running (see `WorkerCrash.leftBy`). */
  leftBy?: CrashLeftBy
}

/** Options of {@link createQuickJsRuntime}. */
export interface QuickJsRuntimeOptions {
  /** Memory the VM may allocate, MB. Default {@link DEFAULT_VM_MEMORY_LIMIT_MB}. */
  memoryLimitMb?: number
  /** Called once when the VM ran out of memory or failed; the worker should then be replaced. */
  onCrash?: (crash: VmCrash) => void
  /** `fetch` of user code. Default the worker's `fetch`. */
  fetch?: typeof fetch
  /** Console lines of user code. Default the worker's `console`. */
  log?: (level: string, text: string) => void
  /** Monotonic clock, ms. Default `performance.now`. */
  now?: () => number
}

/** A {@link SandboxRuntime} in a QuickJS VM, with a time budget per operation. */
export interface QuickJsSandboxRuntime extends SandboxRuntime {
  /**
   * Runs `work` (which starts one operation of this runtime) with `timeoutMs` as that operation's
   * budget: code that runs without a pause past it (less a margin of a fifth, at most 2 s, so the
   * answer reaches the host before its own timer even when a garbage collection is under way) is
   * interrupted. Without a budget, {@link DEFAULT_STRAY_BUDGET_MS}.
   */
  budget<T>(timeoutMs: number | undefined, work: () => T): T
  /** Frees the VM. Later operations fail. */
  dispose(): void
}

interface InFlight {
  deadline: number
}

/** A batched tool call running in the VM. */
interface OpenCall {
  key: number
  name: string
  budgetMs: number
  settle: (key: number, result: ExecuteResult, durationMs: number) => void
}

/** The cap each wasm memory grows under, and who hears of a refused growth (see {@link capGrowth}). */
const growthCaps = new WeakMap<WebAssembly.Memory, { maxBytes: number; refused: (refused: boolean) => void }>()

/**
 * Caps the growth of `memory` at `maxBytes`: a `grow` past it throws, as one past the memory's
 * own maximum does, so Emscripten's heap resize fails and `malloc` returns NULL. Emscripten's glue
 * calls `grow` on the memory object, so an own `grow` is the one it finds. `refused(true)` hears
 * of each refusal, `refused(false)` of each growth (Emscripten first asks for some room to spare,
 * then for less: only a refusal not followed by a growth means the allocation failed). The last
 * cap set on a memory is the one in force (the VMs of one module share its memory).
 */
function capGrowth(memory: WebAssembly.Memory, maxBytes: number, refused: (refused: boolean) => void): void {
  if (!growthCaps.has(memory)) {
    const grow = memory.grow.bind(memory)
    Object.defineProperty(memory, 'grow', {
      value(pages: number): number {
        const cap = growthCaps.get(memory)
        if (cap && memory.buffer.byteLength + pages * 65536 > cap.maxBytes) {
          cap.refused(true)
          throw new RangeError('The sandbox VM reached its memory limit.')
        }
        const before = grow(pages)
        cap?.refused(false)
        return before
      },
      configurable: true,
      writable: true,
    })
  }
  growthCaps.set(memory, { maxBytes, refused })
}

/** What is kept back from a budget so the answer reaches the host before its own timer: a fifth, at most 2 s, ms. */
function marginOf(budgetMs: number): number {
  return Math.min(2000, Math.max(10, budgetMs / 5))
}

/** `Tool "x"`, `model.ts`, … — who was running when code was interrupted. */
type Who = { op: 'load'; file: SourceFile } | { op: 'tool'; name: string } | { op: 'model' } | { op: 'route' } | { op: 'summarize' } | { op: 'code' }

/** Who runs the VM operation `op` with `args` (as `call` passes them). */
function whoOf(op: string, args: unknown): Who {
  const fields = (typeof args === 'object' && args !== null ? args : {}) as { file?: unknown; name?: unknown }
  switch (op) {
    case 'load':
      return { op: 'load', file: fields.file === 'model.ts' ? 'model.ts' : 'tools.ts' }
    case 'executeTool':
      return { op: 'tool', name: String(fields.name) }
    case 'callModel':
      return { op: 'model' }
    case 'callRoute':
      return { op: 'route' }
    case 'callSummarize':
      return { op: 'summarize' }
    default:
      return { op: 'code' }
  }
}

/** The file whose code `who` ran, and after what its leftover code still runs. */
function leftByOf(who: Who): CrashLeftBy {
  switch (who.op) {
    case 'load':
      return { file: who.file, after: 'after its top-level code ended' }
    case 'tool':
      return { file: 'tools.ts', after: `after tool ${JSON.stringify(who.name)} returned` }
    case 'model':
      return { file: 'model.ts', after: 'after its turn ended' }
    case 'route':
      return { file: 'tools.ts', after: 'after route() returned' }
    case 'summarize':
      return { file: 'tools.ts', after: 'after summarize() returned' }
    case 'code':
      return { file: 'The code block', after: 'after it ended' }
  }
}

function isOutOfMemoryError(error: { name?: unknown; message?: unknown } | undefined): boolean {
  return error !== undefined && error.name === 'InternalError' && error.message === 'out of memory'
}

const INTERRUPTED = /^InternalError: interrupted\b/

/**
 * The interrupt error a runtime result carries, when the runtime's own `catch` got it (QuickJS
 * keeps an interrupt uncatchable only until it crosses an `await`).
 */
function reportedInterrupt(result: unknown): SerializedError | undefined {
  if (typeof result !== 'object' || result === null || (result as { ok?: unknown }).ok !== false) return undefined
  const error = (result as { error?: unknown }).error
  if (typeof error === 'string') return INTERRUPTED.test(error) ? { name: 'InternalError', message: 'interrupted' } : undefined
  if (typeof error !== 'object' || error === null) return undefined
  const { name, message, stack } = error as { name?: unknown; message?: unknown; stack?: unknown }
  if ((name === 'InternalError' && message === 'interrupted') || (typeof message === 'string' && INTERRUPTED.test(message))) {
    return { name: 'InternalError', message: 'interrupted', ...(typeof stack === 'string' ? { stack } : {}) }
  }
  return undefined
}

/** True when a runtime result reports that the VM ran out of memory. */
function reportsOutOfMemory(result: unknown): boolean {
  if (typeof result !== 'object' || result === null || (result as { ok?: unknown }).ok !== false) return false
  const error = (result as { error?: unknown }).error
  if (typeof error === 'string') return /^InternalError: out of memory\b/.test(error)
  if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message
    return isOutOfMemoryError(error as SerializedError) || (typeof message === 'string' && /^InternalError: out of memory\b/.test(message))
  }
  return false
}

/**
 * The body of a fetched response as text, refused past `maxBytes` (the VM's memory limit: the
 * text is read in the worker, whose memory has no cap of its own, before it is copied into the VM).
 * @throws RangeError past `maxBytes`, or what reading the body throws.
 */
async function readBody(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'))
  const tooBig = () => new RangeError(`the response body is larger than the sandbox memory limit (${Math.round(maxBytes / (1024 * 1024))} MB)`)
  if (declared > maxBytes) throw tooBig()
  if (!response.body) return response.text()
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return text + decoder.decode()
    bytes += value.byteLength
    if (bytes > maxBytes) {
      void reader.cancel()
      throw tooBig()
    }
    text += decoder.decode(value, { stream: true })
  }
}

const INTL_KINDS = new Set(['DateTimeFormat', 'NumberFormat', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'Collator'])
const INTL_METHODS = new Set(['format', 'formatToParts', 'resolvedOptions', 'select', 'compare', 'formatRange'])

/** One `Intl` call on the worker's `Intl`, for the VM. Never throws. */
function callIntl(kind: string, locales: string, optionsJson: string, method: string, argsJson: string): { ok: true; value: unknown } | { ok: false; name: string; message: string } {
  try {
    if (!INTL_KINDS.has(kind) || (method !== '' && !INTL_METHODS.has(method))) throw new TypeError(`Intl.${kind}${method ? `.${method}` : ''} is not available in the sandbox.`)
    const Maker = (Intl as unknown as Record<string, new (locales?: unknown, options?: unknown) => Record<string, (...args: unknown[]) => unknown>>)[kind]
    if (!Maker) throw new TypeError(`Intl.${kind} is not available in the sandbox.`)
    const instance = new Maker(JSON.parse(locales) as unknown, JSON.parse(optionsJson) as unknown)
    if (method === '') return { ok: true, value: null }
    const args = (JSON.parse(argsJson) as unknown[]).map((arg) => (typeof arg === 'object' && arg !== null && 'date' in arg ? new Date((arg as { date: number }).date) : arg))
    const fn = instance[method]
    if (typeof fn !== 'function') throw new TypeError(`Intl.${kind} has no ${method}().`)
    return { ok: true, value: fn.apply(instance, args) }
  } catch (error) {
    return { ok: false, name: error instanceof Error ? error.name : 'Error', message: errorMessage(error) }
  }
}

/**
 * Creates the runtime in a fresh VM of `module` by evaluating `runtimeSource`, the runtime bundle
 * (`import source from 'virtual:toolstep-vm-runtime'`, or `buildVmRuntime()` of
 * `scripts/vm-bundle.ts` outside Vite); that takes some tens of ms.
 * @throws when the bundle cannot be evaluated (a build problem, never user code).
 */
export function createQuickJsRuntime(module: QuickJSWASMModule, runtimeSource: string, options: QuickJsRuntimeOptions = {}): QuickJsSandboxRuntime {
  const limitMb = options.memoryLimitMb ?? DEFAULT_VM_MEMORY_LIMIT_MB
  const now = options.now ?? (() => performance.now())
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init))
  const log = options.log ?? ((level: string, text: string) => (console[level as 'log'] ?? console.log)(text))

  const runtime: QuickJSRuntime = module.newRuntime()
  runtime.setMemoryLimit(limitMb * 1024 * 1024)
  runtime.setMaxStackSize(MAX_STACK_KB * 1024)
  const context: QuickJSContext = runtime.newContext()

  let dead = false
  let crashed = false
  /** The load or call that ended last: code still running while nothing is in flight is its. */
  let lastEnded: Who | undefined
  /** True while the VM runs promise jobs with no load or call in flight (see {@link enter}). */
  let straying = false
  const inFlight = new Set<InFlight>()
  let nextBudget: number | undefined
  let sliceStarted = 0
  let sliceDeadline = Infinity
  /** Set when the interrupt fired during the current slice: how long the slice had run, ms. */
  let interruptedAfter: number | undefined
  const timers = new Map<number, ReturnType<typeof setTimeout>>()
  /** Fetches started by user code and not yet delivered, by their id in the VM. */
  const fetches = new Set<number>()
  /** Set once the work in flight has all ended, until the VM has dropped its timers and fetches. */
  let dropQueued = false
  /** Batched tool calls started in the VM and not yet settled, by their key in the VM. */
  const openCalls = new Map<number, OpenCall>()
  /** How many open batched calls have each budget, ms (see {@link beginSlice}). */
  const openBudgets = new Map<number, number>()
  let nextCallKey = 0
  const progressListeners = new Map<string, (progress: CodeProgress) => void>()

  // QuickJS's own limit does not see every allocation (array storage grows past it, and freed
  // blocks it no longer counts leave the wasm memory fragmented), so the wasm memory itself is
  // capped too: a growth past the limit is refused, the allocator returns NULL, and QuickJS throws
  // `out of memory` where it allocated, even inside a builtin's own loop, where the interrupt
  // handler is never polled (a `split` or an `Array.from` of a huge string grew it to 800 MB).
  const wasmMemory = module.getWasmMemory()
  const startBytes = wasmMemory.buffer.byteLength
  const limitBytes = limitMb * 1024 * 1024 + startBytes
  let overLimit = false
  /** Set while the last growth of the wasm memory was refused: an allocation failed for want of memory. */
  let growthRefused = false
  // An eighth more than the limit, so that QuickJS, which counts less, still has the room to make
  // its own `out of memory` error in most cases (without it, the error thrown is `null`).
  capGrowth(wasmMemory, limitBytes + limitMb * 1024 * 128, (refused) => {
    growthRefused = refused
  })
  /** True once user code took the VM past its memory limit (even if it caught the error). */
  const outOfMemoryNow = () => overLimit || growthRefused
  runtime.setInterruptHandler(() => {
    // `overLimit` may have been set by an allocation user code caught the error of: it stops anyway.
    if (outOfMemoryNow() || wasmMemory.buffer.byteLength > limitBytes) {
      overLimit = true
      return true
    }
    const time = now()
    if (time <= sliceDeadline) return false
    interruptedAfter = Math.round(time - sliceStarted)
    sliceDeadline = time + INTERRUPT_GRACE_MS
    // Stopped at its deadline with the VM nearly full: it was running out of memory, and says so.
    if ((memoryUsedBytes() ?? 0) >= NEAR_LIMIT * limitMb * 1024 * 1024) overLimit = true
    return true
  })

  /** True while a load, a call or a batched tool call is in flight: user code's timers may run. */
  function busy(): boolean {
    return inFlight.size > 0 || openCalls.size > 0
  }

  /**
   * Called when a piece of work ended: once none is left, the timers and fetches user code
   * started are dropped, here and (in a later job, never inside a slice) in the VM, so no code
   * of a call runs after it ended and nothing it scheduled is held.
   */
  function workEnded(): void {
    if (busy()) return
    for (const timer of timers.values()) clearTimeout(timer)
    timers.clear()
    fetches.clear()
    if (dropQueued) return
    dropQueued = true
    queueMicrotask(() => {
      dropQueued = false
      if (!busy()) enter(() => callDeliver('drop', 0, ''))
    })
  }

  function crash(outOfMemory: boolean, message: string): void {
    if (crashed) return
    crashed = true
    // No more user code runs here: the worker is about to be replaced.
    for (const timer of timers.values()) clearTimeout(timer)
    timers.clear()
    // Code that ran with nothing in flight was left running by the last load or call (promise jobs
    // it queued run after it ended): it is named rather than whatever comes next.
    const leftBy = straying && lastEnded ? leftByOf(lastEnded) : undefined
    options.onCrash?.({ outOfMemory, limitMb, message, ...(leftBy ? { leftBy } : {}) })
  }

  /**
   * Starts a slice of VM execution. Its deadline is the earliest of the single operations in
   * flight (few: a load, a model call, a code block), and, while batched tool calls are open, the
   * shortest budget among them counted from the slice's start: code that runs that long without a
   * pause is stopped, while a batched call that merely waits (a hung promise) is the batch's
   * watchdog's to report, so it never interrupts a sibling that is running.
   */
  function beginSlice(): void {
    sliceStarted = now()
    interruptedAfter = undefined
    let deadline = Infinity
    for (const entry of inFlight) deadline = Math.min(deadline, entry.deadline)
    let shortest = Infinity
    for (const budgetMs of openBudgets.keys()) shortest = Math.min(shortest, budgetMs)
    if (shortest !== Infinity) deadline = Math.min(deadline, sliceStarted + shortest - marginOf(shortest))
    sliceDeadline = deadline === Infinity ? sliceStarted + DEFAULT_STRAY_BUDGET_MS : deadline
  }

  /** Runs the promise jobs the last entry queued (async functions, `then`), in the same slice. */
  function drain(): void {
    for (;;) {
      const result = runtime.executePendingJobs(-1)
      if (result.error) {
        const error = readError(result.error)
        result.error.dispose()
        if (isOutOfMemoryError(error) || outOfMemoryNow()) crash(true, 'out of memory in a promise job')
        continue
      }
      const count = result.value
      if (count === 0 || !runtime.hasPendingJob()) return
    }
  }

  /** Enters the VM (a call, a timer, a fetch's end), then runs what it queued. Engine failures are crashes. */
  function enter<T>(work: () => T): T | undefined {
    if (dead || crashed) return undefined
    beginSlice()
    try {
      const value = work()
      // The work may have ended (a load, a synchronous result): the jobs left then are strays.
      straying = !busy()
      drain()
      // A stray job that ran out of memory rejects its own promise (no job error): the VM says so.
      if (straying && outOfMemoryNow()) crash(true, 'out of memory in code left running')
      if (openCalls.size > 0) collectSettled()
      return value
    } catch (error) {
      // The VM itself failed (the wasm stack overflowed, memory could not grow): it cannot be trusted any more.
      crash(/memory/i.test(errorMessage(error)), `The QuickJS VM failed: ${errorMessage(error)}`)
      return undefined
    } finally {
      straying = false
    }
  }

  function readError(handle: QuickJSHandle): SerializedError {
    try {
      const dumped = context.dump(handle) as unknown
      if (typeof dumped === 'object' && dumped !== null) {
        const { name, message, stack } = dumped as { name?: unknown; message?: unknown; stack?: unknown }
        return {
          name: typeof name === 'string' ? name : 'Error',
          message: typeof message === 'string' ? message : String(message),
          ...(typeof stack === 'string' ? { stack } : {}),
        }
      }
      return { name: 'Error', message: String(dumped) }
    } catch {
      // Reading the error needs memory too.
      return { name: 'InternalError', message: 'out of memory' }
    }
  }

  // ---- what the VM may call ----
  const hostFunctions: Record<keyof VmHost, (...args: QuickJSHandle[]) => QuickJSHandle | { error: QuickJSHandle } | undefined> = {
    transform(code, optionsJson) {
      const source = context.getString(code)
      const transformOptions = JSON.parse(context.getString(optionsJson)) as Parameters<typeof transform>[1]
      let reply: unknown
      try {
        reply = { ok: true, code: transform(source, transformOptions).code }
      } catch (error) {
        const loc = typeof error === 'object' && error !== null && 'loc' in error ? (error as { loc?: unknown }).loc : undefined
        reply = { ok: false, message: errorMessage(error), ...(loc ? { loc } : {}) }
      }
      return context.newString(JSON.stringify(reply))
    },
    parse(code) {
      try {
        parseScript(context.getString(code), { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true })
        return context.newString('')
      } catch (error) {
        const loc = typeof error === 'object' && error !== null && 'loc' in error ? (error as { loc?: unknown }).loc : undefined
        return context.newString(JSON.stringify({ message: errorMessage(error), ...(loc ? { loc } : {}) }))
      }
    },
    topLevelAwait(code) {
      const found = findTopLevelAwait(context.getString(code))
      return context.newString(found ? JSON.stringify(found) : '')
    },
    nesting(source) {
      return context.newString(nestingProblem(context.getString(source)) ?? '')
    },
    compile(source, file) {
      const result = context.evalCode(context.getString(source), context.getString(file))
      return result.error ? { error: result.error } : result.value
    },
    log(level, text) {
      log(context.getString(level), context.getString(text))
      return undefined
    },
    now() {
      return context.newNumber(now())
    },
    memoryFull(bytes) {
      const wanted = Math.max(0, context.getNumber(bytes) || 0)
      const limit = limitMb * 1024 * 1024
      // The wasm memory's growth is cheap to read and never below what is held; only near the
      // limit is the exact count asked for.
      const full = wasmMemory.buffer.byteLength - startBytes + wanted > limit && (memoryUsedBytes() ?? 0) + wanted > limit
      if (full) overLimit = true
      return full ? context.true : context.false
    },
    randomUUID() {
      return context.newString(crypto.randomUUID())
    },
    randomHex(count) {
      const bytes = crypto.getRandomValues(new Uint8Array(Math.max(0, Math.min(65536, context.getNumber(count)))))
      return context.newString(Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join(''))
    },
    setTimer(id, delay) {
      const timerId = context.getNumber(id)
      const ms = Math.max(0, context.getNumber(delay))
      // Timers belong to the work in flight: none may start once it has all ended (a stray
      // continuation), and at most MAX_TIMERS wait at once (each is a real timer of the worker).
      if (!busy()) return context.newString('ended')
      if (!timers.has(timerId) && timers.size >= MAX_TIMERS) return context.newString('limit')
      clearTimeout(timers.get(timerId))
      timers.set(
        timerId,
        setTimeout(() => {
          timers.delete(timerId)
          deliver('timer', timerId, '')
        }, ms),
      )
      return context.newString('')
    },
    clearTimer(id) {
      const timerId = context.getNumber(id)
      clearTimeout(timers.get(timerId))
      timers.delete(timerId)
      return undefined
    },
    fetch(id, requestJson) {
      const fetchId = context.getNumber(id)
      const request = JSON.parse(context.getString(requestJson)) as { url: string; method: string; headers: [string, string][]; body?: string }
      if (!busy()) return context.newString('ended')
      fetches.add(fetchId)
      void (async () => {
        let reply: unknown
        try {
          const response = await doFetch(request.url, { method: request.method, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) })
          const body = await readBody(response, limitMb * 1024 * 1024)
          reply = { ok: true, status: response.status, statusText: response.statusText, url: response.url, headers: [...response.headers], body }
        } catch (error) {
          reply = { ok: false, message: `fetch failed: ${errorMessage(error)}` }
        }
        // A fetch of work that has ended is not delivered: its continuation would run after it.
        if (fetches.delete(fetchId)) deliver('fetch', fetchId, JSON.stringify(reply))
      })()
      return context.newString('')
    },
    hasProtocol(id) {
      return getProtocol(context.getString(id)) === undefined ? context.false : context.true
    },
    render(id, outputJson) {
      const protocol = getProtocol(context.getString(id))
      return context.newString(protocol ? protocol.render(JSON.parse(context.getString(outputJson)) as Parameters<Protocol['render']>[0]) : '')
    },
    intl(kind, locales, optionsJson, method, argsJson) {
      const reply = callIntl(context.getString(kind), context.getString(locales), context.getString(optionsJson), context.getString(method), context.getString(argsJson))
      return context.newString(JSON.stringify(reply))
    },
    progress(key, json) {
      progressListeners.get(context.getString(key))?.(JSON.parse(context.getString(json)) as CodeProgress)
      return undefined
    },
  }

  const hostObject = context.newObject()
  for (const [name, implementation] of Object.entries(hostFunctions)) {
    const fn = context.newFunction(name, implementation)
    context.setProp(hostObject, name, fn)
    fn.dispose()
  }
  context.setProp(context.global, '__toolstepHost', hostObject)
  hostObject.dispose()

  // The bundle takes the host off the global object first thing, and leaves its own entry points there.
  beginSlice()
  sliceDeadline = Infinity
  const booted = context.evalCode(runtimeSource, 'toolstep-runtime.js')
  if (booted.error) {
    const error = readError(booted.error)
    booted.error.dispose()
    context.dispose()
    runtime.dispose()
    throw new Error(`The sandbox runtime could not start in QuickJS: ${error.name}: ${error.message}`)
  }
  booted.value.dispose()
  const exported = context.getProp(context.global, '__toolstepVm')
  const dispatchFn = context.getProp(exported, 'dispatch')
  const deliverFn = context.getProp(exported, 'deliver')
  const startToolsFn = context.getProp(exported, 'startTools')
  const takeSettledFn = context.getProp(exported, 'takeSettled')
  exported.dispose()
  context.unwrapResult(context.evalCode('delete globalThis.__toolstepVm')).dispose()

  /** Calls the VM's `deliver` (inside a slice). */
  function callDeliver(kind: string, id: number, json: string): void {
    const args = [context.newString(kind), context.newNumber(id), context.newString(json)]
    const result = context.callFunction(deliverFn, context.undefined, ...args)
    for (const arg of args) arg.dispose()
    if (result.error) {
      const error = readError(result.error)
      result.error.dispose()
      if (outOfMemoryNow() || isOutOfMemoryError(error)) crash(true, 'out of memory in a timer or fetch callback')
      else log('error', `Uncaught ${error.name}: ${error.message}`)
    } else {
      result.value.dispose()
    }
  }

  function deliver(kind: string, id: number, json: string): void {
    enter(() => callDeliver(kind, id, json))
  }

  /**
   * Runs `op` in the VM: its parsed result, or `failed(error, interruptedAfterMs)` when it threw
   * past every catch (an interrupt) or the VM failed. Synchronous ops (`load`) come back as a
   * value, the others as a promise.
   */
  function call<T>(op: string, args: unknown, failed: (error: SerializedError, interruptedAfterMs: number | undefined) => T): T | Promise<T> {
    if (dead) return failed({ name: 'Error', message: 'The sandbox runtime was disposed.' }, undefined)
    const budget = nextBudget
    nextBudget = undefined
    const started = now()
    const entry: InFlight = { deadline: budget === undefined ? started + DEFAULT_STRAY_BUDGET_MS : started + budget - marginOf(budget) }
    const outOfMemory = (): T => {
      crash(true, `out of memory in ${op}`)
      return failed({ name: 'InternalError', message: 'out of memory' }, undefined)
    }
    const finish = (value: T): T => {
      inFlight.delete(entry)
      lastEnded = whoOf(op, args)
      workEnded()
      if (outOfMemoryNow()) return outOfMemory()
      if (reportsOutOfMemory(value)) crash(true, `out of memory in ${op}`)
      const interrupt = reportedInterrupt(value)
      if (interrupt) {
        const rewritten = failed(interrupt, interruptedAfter ?? Math.round(now() - started))
        // A load result keeps the position the runtime found.
        return op === 'load' ? ({ ...rewritten, error: { ...(value as { error: object }).error, message: (rewritten as { error: { message: string } }).error.message } } as T) : rewritten
      }
      return value
    }
    const fail = (handle: QuickJSHandle): T => {
      const error = readError(handle)
      handle.dispose()
      if (outOfMemoryNow()) return outOfMemory()
      const interrupted = error.name === 'InternalError' && error.message === 'interrupted' ? (interruptedAfter ?? Math.round(now() - started)) : undefined
      if (isOutOfMemoryError(error)) crash(true, `out of memory in ${op}`)
      return failed(error, interrupted)
    }
    let text: string
    try {
      text = JSON.stringify(args)
    } catch (error) {
      return failed({ name: 'Error', message: errorMessage(error) }, undefined)
    }
    inFlight.add(entry)
    const returned = enter((): { value: T } | { pending: Promise<T> } => {
      const opHandle = context.newString(op)
      const argsHandle = context.newString(text)
      const result = context.callFunction(dispatchFn, context.undefined, opHandle, argsHandle)
      opHandle.dispose()
      argsHandle.dispose()
      if (result.error) return { value: finish(fail(result.error)) }
      const value = result.value
      if (context.typeof(value) === 'string') {
        const parsed = JSON.parse(context.getString(value)) as T
        value.dispose()
        return { value: finish(parsed) }
      }
      const pending = context.resolvePromise(value).then((settled) => {
        if (settled.error) return finish(fail(settled.error))
        const parsed = JSON.parse(context.getString(settled.value)) as T
        settled.value.dispose()
        return finish(parsed)
      })
      value.dispose()
      return { pending }
    })
    if (returned && 'pending' in returned) return returned.pending
    if (returned) return returned.value
    inFlight.delete(entry)
    workEnded()
    return failed({ name: 'InternalError', message: crashed ? 'out of memory' : 'The sandbox runtime stopped.' }, undefined)
  }

  /** Ends `open` with `result`: the call leaves the open set, then its batch hears of it. */
  function closeCall(open: OpenCall, result: ExecuteResult, durationMs: number): void {
    if (!openCalls.delete(open.key)) return
    lastEnded = { op: 'tool', name: open.name }
    workEnded()
    const left = (openBudgets.get(open.budgetMs) ?? 1) - 1
    if (left === 0) openBudgets.delete(open.budgetMs)
    else openBudgets.set(open.budgetMs, left)
    open.settle(open.key, result, durationMs)
  }

  /** An out-of-memory or interrupt result in the runtime's words (as {@link call} does for one call); others as they are. */
  function checkedResult(open: OpenCall, result: ExecuteResult, durationMs: number): ExecuteResult {
    if (outOfMemoryNow() || reportsOutOfMemory(result)) {
      crash(true, `out of memory in tool "${open.name}"`)
      return { ok: false, error: { name: 'InternalError', message: 'out of memory' } }
    }
    const interrupt = reportedInterrupt(result)
    return interrupt ? { ok: false, error: interruptedError({ op: 'tool', name: open.name }, interruptedAfter ?? Math.round(durationMs), interrupt.stack) } : result
  }

  /**
   * Takes the batched calls that settled in the VM since the last look: one string out of the VM
   * for all of them (JSON `[[key, result, durationMs], …]`), not a handle per value.
   */
  function collectSettled(): void {
    const taken = context.callFunction(takeSettledFn, context.undefined)
    if (taken.error) {
      const error = readError(taken.error)
      taken.error.dispose()
      if (outOfMemoryNow() || isOutOfMemoryError(error)) crash(true, 'out of memory while reporting tool results')
      return
    }
    const text = context.getString(taken.value)
    taken.value.dispose()
    if (text === '') return
    let settled: unknown
    try {
      settled = JSON.parse(text)
    } catch {
      return
    }
    if (!Array.isArray(settled)) return
    for (const entry of settled as unknown[]) {
      if (!Array.isArray(entry)) continue
      const [key, result, durationMs] = entry as [unknown, unknown, unknown]
      const open = typeof key === 'number' ? openCalls.get(key) : undefined
      if (!open || typeof result !== 'object' || result === null) continue
      const duration = typeof durationMs === 'number' ? durationMs : 0
      closeCall(open, checkedResult(open, result as ExecuteResult, duration), duration)
    }
  }

  /** Ends every open call of `keys` that is still open with `error` (the VM could not start them). */
  function failCalls(keys: readonly number[], error: SerializedError, durationMs: number): void {
    for (const key of keys) {
      const open = openCalls.get(key)
      if (open) closeCall(open, { ok: false, error }, durationMs)
    }
  }

  function startTools(calls: readonly StartedCall[], settle: (key: number, result: ExecuteResult, durationMs: number) => void): void {
    const keys: number[] = []
    const wire: [number, string, Record<string, JsonValue>, string][] = []
    for (const started of calls) {
      const key = ++nextCallKey
      const budgetMs = started.timeoutMs
      // The batch knows its calls by its own keys; the VM by this runtime's.
      openCalls.set(key, { key, name: started.name, budgetMs, settle: (_key, result, durationMs) => settle(started.key, result, durationMs) })
      openBudgets.set(budgetMs, (openBudgets.get(budgetMs) ?? 0) + 1)
      keys.push(key)
      wire.push([key, started.name, started.arguments, started.callId])
    }
    const startedAt = now()
    if (dead || crashed) {
      failCalls(keys, crashed ? { name: 'InternalError', message: 'out of memory' } : { name: 'Error', message: 'The sandbox runtime was disposed.' }, 0)
      return
    }
    let text: string
    try {
      text = JSON.stringify(wire)
    } catch (error) {
      failCalls(keys, { name: 'Error', message: errorMessage(error) }, 0)
      return
    }
    const failure = enter((): SerializedError | undefined => {
      const argument = context.newString(text)
      const result = context.callFunction(startToolsFn, context.undefined, argument)
      argument.dispose()
      if (!result.error) {
        result.value.dispose()
        return undefined
      }
      const error = readError(result.error)
      result.error.dispose()
      return error
    })
    if (outOfMemoryNow() || (failure && isOutOfMemoryError(failure))) {
      crash(true, 'out of memory while starting tool calls')
      failCalls(keys, { name: 'InternalError', message: 'out of memory' }, now() - startedAt)
    } else if (failure) {
      // Only an interrupt gets out of the VM's loop (it catches the rest): the slice ran past its budget.
      const interrupted = failure.name === 'InternalError' && failure.message === 'interrupted'
      for (const key of keys) {
        const open = openCalls.get(key)
        if (open) closeCall(open, { ok: false, error: interrupted ? interruptedError({ op: 'tool', name: open.name }, interruptedAfter ?? Math.round(now() - startedAt), failure.stack) : failure }, now() - startedAt)
      }
    } else if (crashed && !dead) {
      failCalls(keys, { name: 'InternalError', message: 'out of memory' }, now() - startedAt)
    }
  }

  const later = <T>(value: T | Promise<T>): Promise<T> => Promise.resolve(value)

  /**
   * Memory the VM holds, bytes, when it can be measured: what QuickJS counts as allocated, or the
   * growth of the wasm memory since the VM started, whichever is larger (QuickJS does not count
   * every allocation, and the wasm memory never shrinks, so neither alone tells).
   */
  function memoryUsedBytes(): number | undefined {
    const grown = wasmMemory.buffer.byteLength - startBytes
    try {
      const handle = runtime.computeMemoryUsage()
      const usage = context.dump(handle) as { malloc_size?: unknown }
      handle.dispose()
      return typeof usage.malloc_size === 'number' ? Math.max(usage.malloc_size, grown) : grown
    } catch {
      return grown
    }
  }

  /** {@link memoryUsedBytes} in MB (rounded). */
  function memoryUsedMb(): number | undefined {
    const used = memoryUsedBytes()
    return used === undefined ? undefined : Math.round(used / (1024 * 1024))
  }

  /** The message of code stopped by the interrupt: who ran, for how long, and where when known. */
  function interruptedError(who: Who, afterMs: number, stack: string | undefined): SerializedError {
    const file: SourceFile = who.op === 'load' ? who.file : who.op === 'model' ? 'model.ts' : 'tools.ts'
    const where = locate(file, { stack: stack ?? '' } as Error)
    const at = where.line === undefined ? '' : ` (at ${file}:${where.line}${where.column === undefined ? '' : `:${where.column}`})`
    // The host puts a call's interrupt in its own words (`Tool "x" timed out after 5000 ms …`), so
    // only a load and a code block, whose results the host shows as they are, name themselves.
    const subject = who.op === 'load' ? `${who.file}'s top-level code` : who.op === 'code' ? 'The code block' : 'It'
    // The host says how long a call ran and its limit; a second, differently measured duration
    // ("ran for 2430 ms" beside "timed out after 2.5 s") would only contradict it.
    const ran = subject === 'It' ? 'ran' : `ran for ${afterMs} ms`
    const used = memoryUsedMb()
    const holding = used !== undefined && used >= limitMb / 4 ? ` while holding ${used} MB of its ${limitMb} MB memory limit` : ''
    return {
      name: SANDBOX_ERROR_NAMES.interrupted,
      message: `${subject} ${ran} without a pause and was interrupted${at}${holding}. Is there an endless loop?`,
      ...(stack ? { stack } : {}),
    }
  }

  /** An error as a call's result: the interrupt's message when it was interrupted. */
  const asError = (who: Who) => (error: SerializedError, interruptedAfterMs: number | undefined): SerializedError =>
    interruptedAfterMs === undefined ? error : interruptedError(who, interruptedAfterMs, error.stack)

  let codeKeys = 0

  return {
    load(file, source) {
      const result = call<LoadFileResult>('load', { file, source }, (error, interruptedAfterMs) => {
        const where = locate(file, { stack: error.stack ?? '' } as Error)
        const message = interruptedAfterMs === undefined ? `${error.name}: ${error.message}` : interruptedError({ op: 'load', file }, interruptedAfterMs, error.stack).message
        return { ok: false, error: { file, ...where, message } }
      })
      // `load` is a synchronous op, so `call` answers with a value.
      return result instanceof Promise ? { ok: false, error: { file, message: 'The sandbox runtime answered a load asynchronously.' } } : result
    },
    callModel(request: ModelRequest | WireModelRequest): Promise<ModelCallResult> {
      return later(call('callModel', { request }, (error, ms) => ({ ok: false, error: asError({ op: 'model' })(error, ms) })))
    },
    executeTool(name: string, args: Record<string, JsonValue>, callId: string): Promise<ExecuteResult> {
      return later(call('executeTool', { name, arguments: args, callId }, (error, ms) => ({ ok: false, error: asError({ op: 'tool', name })(error, ms) })))
    },
    callRoute(request: ModelRequest | WireModelRequest): Promise<RouteCallResult> {
      return later(call('callRoute', { request }, (error, ms) => ({ ok: false, error: asError({ op: 'route' })(error, ms) })))
    },
    callSummarize(result: string, summarizeContext: SummarizeContext): Promise<SummarizeCallResult> {
      return later(call('callSummarize', { result, context: summarizeContext }, (error, ms) => ({ ok: false, error: asError({ op: 'summarize' })(error, ms) })))
    },
    runCode(code: string, codeOptions: { maxOutputChars: number }, onProgress?: (progress: CodeProgress) => void): Promise<CodeRunResult> {
      const key = `code${++codeKeys}`
      // What the block reported so far: the result when it never returns on its own (interrupted).
      let output = ''
      let truncated = false
      const calls: CodeRunResult['calls'] = []
      progressListeners.set(key, (progress) => {
        if (progress.kind === 'output') {
          output += progress.text
          truncated ||= progress.truncated
        } else {
          calls.push(progress.call)
        }
        onProgress?.(progress)
      })
      return later(call<CodeRunResult>('runCode', { code, options: codeOptions, key }, (error, ms) => {
        const shown = asError({ op: 'code' })(error, ms)
        return { ok: false, output, truncated, error: ms === undefined ? `${shown.name}: ${shown.message}` : shown.message, calls: [...calls] }
      })).finally(() => progressListeners.delete(key))
    },
    startTools,
    budget(timeoutMs, work) {
      nextBudget = timeoutMs
      try {
        return work()
      } finally {
        nextBudget = undefined
      }
    },
    dispose() {
      if (dead) return
      dead = true
      for (const timer of timers.values()) clearTimeout(timer)
      timers.clear()
      // After running out of memory the VM's heap is not in a state QuickJS can free (it asserts);
      // the worker that holds it is terminated instead.
      if (crashed) return
      try {
        dispatchFn.dispose()
        deliverFn.dispose()
        startToolsFn.dispose()
        takeSettledFn.dispose()
        context.dispose()
        runtime.dispose()
      } catch {
        // Same: an engine that failed is left to the worker's termination.
      }
    },
  }
}
