/**
 * The sandbox worker's side of an `execute-tools` batch: the calls of one turn arrive in one
 * message and are started in slices, so that a turn of 100 000 calls costs one message, one
 * JSON text and a few hundred entries into the engine instead of 100 000 of each.
 *
 * Each call keeps its own result, duration and timeout: its timeout counts from when it starts
 * here (not from when the host posted the batch, which would charge a call for the time it waited
 * behind its siblings). A call that has not settled by then is reported `timedOut`, and the host
 * stops the worker (it may still be doing something). A call that runs without a pause past its
 * budget is the engine's to stop (the browser's QuickJS VM interrupts it and reports that call
 * alone); where the engine cannot, the host's own timer ends the worker when it falls silent.
 *
 * Between slices the worker returns to its event loop, so timers, fetches and other requests run,
 * and every slice reports the calls that finished in it (and how many have started), which is the
 * host's sign that the worker is alive.
 */
import type { JsonValue } from '../core/messages'
import type { BatchCall, BatchResult } from './protocol'
import type { ExecuteResult, SandboxRuntime, StartedCall } from './runtime'
import { serializeError } from './user-errors'

// Taken when this module loads, before any user code: in the Node sandbox user code shares this
// realm and may replace the globals, which must not stop a batch from being reported.
const setTimer = globalThis.setTimeout.bind(globalThis)
const clearTimer = globalThis.clearTimeout.bind(globalThis)
const microtask = globalThis.queueMicrotask.bind(globalThis)
const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate?.bind(globalThis)
const clock = performance.now.bind(performance)
const MessageChannelClass = globalThis.MessageChannel

/** Time one slice of a batch may take before the worker yields, ms. */
const SLICE_MS = 8
/**
 * Calls started in the first slice. Later slices grow (at most eightfold each) or shrink toward
 * {@link SLICE_MS}: slow calls end up one per slice, so each runs under its own budget, and
 * trivial ones thousands per slice.
 */
const FIRST_SLICE = 1
const MAX_GROWTH = 8
const MAX_SLICE = 4096

let yieldQueue: (() => void)[] | undefined
let yieldPort: MessagePort | undefined

/** Runs `callback` in a later task (after pending messages and timers), without a timer's clamping. */
function inNextTask(callback: () => void): void {
  if (immediate) {
    immediate(callback)
    return
  }
  if (!yieldPort && MessageChannelClass) {
    const channel = new MessageChannelClass()
    const queue: (() => void)[] = []
    yieldQueue = queue
    channel.port1.onmessage = () => queue.shift()?.()
    yieldPort = channel.port2
  }
  if (!yieldPort || !yieldQueue) {
    setTimer(callback, 0)
    return
  }
  yieldQueue.push(callback)
  yieldPort.postMessage(null)
}

function isPlainObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Reads the `calls` text of an `execute-tools` request: a JSON array of
 * `{ callId: string, name: string, arguments: object, timeoutMs: number > 0 }`. Never throws.
 */
export function readBatch(text: string): { ok: true; calls: BatchCall[] } | { ok: false; error: string } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return { ok: false, error: `Malformed batch of tool calls: ${serializeError(error).message}` }
  }
  if (!Array.isArray(parsed)) return { ok: false, error: 'Malformed batch of tool calls: not an array.' }
  for (let index = 0; index < parsed.length; index++) {
    const call: unknown = parsed[index]
    if (
      !isPlainObject(call) ||
      typeof call.callId !== 'string' ||
      typeof call.name !== 'string' ||
      !isPlainObject(call.arguments) ||
      typeof call.timeoutMs !== 'number' ||
      !(call.timeoutMs > 0)
    ) {
      return { ok: false, error: `Malformed batch of tool calls: call ${index} needs callId, name, arguments (an object) and timeoutMs (> 0).` }
    }
  }
  return { ok: true, calls: parsed as BatchCall[] }
}

/** What a batch reports after each slice and whenever calls finish. */
export interface BatchUpdate {
  /** Calls started so far, in batch order. */
  started: number
  /** True once every call has finished (the last update). */
  done: boolean
  /** Calls finished since the previous update. */
  results: BatchResult[]
}

/**
 * Wraps the start of the call at `index` of a batch (e.g. to label the code it runs, see
 * node-call-tracker.ts); returns what `start` returns.
 */
export type CallStarter = <T>(index: number, start: () => T) => T

/**
 * Starts `calls` one by one on a runtime that has no batch entry of its own (the V8 runtime), and
 * calls `started` once the last one has started. Each call starts in a job of its own, after the
 * jobs the previous call's code queued at once: a tool that is done when its code returns (a
 * plain value, an `async` function that never waits) has its result settled before the next
 * call's code runs, so a sibling that then blocks the worker cannot take that result down with it.
 */
function startEach(
  runtime: SandboxRuntime,
  calls: readonly StartedCall[],
  settle: (key: number, result: ExecuteResult, durationMs: number) => void,
  startCall: CallStarter | undefined,
  started: () => void,
): void {
  let at = 0
  const startNext = (): void => {
    const call = calls[at++]
    if (!call) {
      started()
      return
    }
    const startedAt = clock()
    const done = (result: ExecuteResult) => settle(call.key, result, clock() - startedAt)
    const failed = (error: unknown) => done({ ok: false, error: serializeError(error) })
    try {
      if (runtime.startTool && !runtime.budget) {
        // Settles in the same job as the tool's code ends (see SandboxRuntime.startTool).
        const begin = () => runtime.startTool?.(call.name, call.arguments, call.callId, done)
        if (startCall) startCall(call.key, begin)
        else begin()
      } else {
        const start = () => (runtime.budget ? runtime.budget(call.timeoutMs, () => runtime.executeTool(call.name, call.arguments, call.callId)) : runtime.executeTool(call.name, call.arguments, call.callId))
        const work = startCall ? startCall(call.key, start) : start()
        work.then(done, failed)
      }
    } catch (error) {
      failed(error)
    }
    microtask(startNext)
  }
  startNext()
}

/**
 * Runs `calls` on `runtime` and reports through `report` (see {@link BatchUpdate}); the first
 * report comes after the first slice (synchronously for a runtime with `startTools`, else once
 * the jobs that start its calls have run). `startCall`, when given, wraps the start of
 * each call (runtimes with their own batch entry, like the browser's VM, do without). `expose`,
 * when given, receives at once a function that reports the calls finished so far (nothing when
 * none): call it before the code of another call runs, so that a sibling blocking the worker for
 * good cannot take finished results down with it (node-call-tracker.ts does, at each switch).
 * Never throws.
 */
export function runToolBatch(
  runtime: SandboxRuntime,
  calls: readonly BatchCall[],
  report: (update: BatchUpdate) => void,
  startCall?: CallStarter,
  expose?: (reportPending: () => void) => void,
): void {
  const total = calls.length
  let next = 0
  let settledCount = 0
  let sliceSize = FIRST_SLICE
  /** Start time of each started, unsettled call; absent once settled. */
  const open = new Map<number, number>()
  let outbox: BatchResult[] = []
  let flushQueued = false
  let finished = false
  // Calls start in batch order, so for one timeout value their deadlines come in start order:
  // one FIFO per distinct timeout finds the earliest deadline without scanning every open call.
  const byTimeout = new Map<number, { queue: number[]; head: number }>()
  let watchdog: ReturnType<typeof setTimeout> | undefined
  let watchdogAt = Infinity

  function flush(): void {
    flushQueued = false
    if (finished) return
    const done = settledCount === total
    if (done) {
      finished = true
      clearTimer(watchdog)
    }
    const results = outbox
    outbox = []
    report({ started: next, done, results })
  }

  /** Reports what finished once the current job is over (the calls settling with it come along). */
  function queueFlush(): void {
    if (flushQueued) return
    flushQueued = true
    microtask(() => {
      if (flushQueued && outbox.length > 0) flush()
      flushQueued = false
    })
  }

  function settle(index: number, result: ExecuteResult, durationMs: number, timedOut = false): void {
    if (finished || !open.delete(index)) return
    settledCount++
    outbox.push({ index, result, durationMs: Math.max(0, Math.round(durationMs)), ...(timedOut ? { timedOut: true } : {}) })
    queueFlush()
  }

  /** The earliest deadline of an open call, dropping settled ones from the front of each FIFO. */
  function earliestDeadline(): number {
    let earliest = Infinity
    for (const [timeoutMs, fifo] of byTimeout) {
      while (fifo.head < fifo.queue.length && !open.has(fifo.queue[fifo.head] as number)) fifo.head++
      if (fifo.head === fifo.queue.length) {
        byTimeout.delete(timeoutMs)
        continue
      }
      earliest = Math.min(earliest, (open.get(fifo.queue[fifo.head] as number) as number) + timeoutMs)
    }
    return earliest
  }

  function armWatchdog(): void {
    const deadline = earliestDeadline()
    if (deadline === Infinity || deadline >= watchdogAt) return
    clearTimer(watchdog)
    watchdogAt = deadline
    watchdog = setTimer(onWatchdog, Math.max(0, deadline - clock()))
  }

  function onWatchdog(): void {
    watchdogAt = Infinity
    watchdog = undefined
    if (finished) return
    const time = clock()
    for (const [timeoutMs, fifo] of byTimeout) {
      for (let at = fifo.head; at < fifo.queue.length; at++) {
        const index = fifo.queue[at] as number
        const startedAt = open.get(index)
        if (startedAt === undefined) continue
        if (startedAt + timeoutMs > time) break
        const call = calls[index] as BatchCall
        settle(index, { ok: false, error: { name: 'TimeoutError', message: `Tool "${call.name}" did not finish within ${timeoutMs} ms.` } }, time - startedAt, true)
      }
    }
    armWatchdog()
  }

  const byKey = (key: number, result: ExecuteResult, durationMs: number) => settle(key, result, durationMs)
  expose?.(() => {
    if (outbox.length > 0) flush()
  })

  function slice(): void {
    if (finished) return
    const sliceStarted = clock()
    const end = Math.min(total, next + sliceSize)
    const starting: StartedCall[] = []
    for (let index = next; index < end; index++) {
      const call = calls[index] as BatchCall
      open.set(index, sliceStarted)
      let fifo = byTimeout.get(call.timeoutMs)
      if (!fifo) byTimeout.set(call.timeoutMs, (fifo = { queue: [], head: 0 }))
      fifo.queue.push(index)
      starting.push({ key: index, name: call.name, arguments: call.arguments, callId: call.callId, timeoutMs: call.timeoutMs })
    }
    next = end
    // Said before any of them runs: should one of these calls block the worker for good, the host
    // knows every call after this slice never started (and had no effects), rather than guessing.
    flush()
    const ended = () => {
      const took = clock() - sliceStarted
      sliceSize = Math.max(1, Math.min(MAX_SLICE, sliceSize * MAX_GROWTH, Math.floor((sliceSize * SLICE_MS) / Math.max(took, 0.01))))
      armWatchdog()
      // Every slice is reported, finished calls or not: the host reads it as a sign of life.
      flush()
      if (next < total) inNextTask(slice)
    }
    if (!runtime.startTools) {
      startEach(runtime, starting, byKey, startCall, ended)
      return
    }
    try {
      runtime.startTools(starting, byKey)
    } catch (error) {
      const serialized = serializeError(error)
      for (const call of starting) settle(call.key, { ok: false, error: serialized }, clock() - sliceStarted)
    }
    ended()
  }

  if (total === 0) {
    finished = true
    report({ started: 0, done: true, results: [] })
    return
  }
  slice()
}
