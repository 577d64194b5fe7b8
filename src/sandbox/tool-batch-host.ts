/**
 * The host's side of `execute-tools` batches: the tool calls the engine starts in the same job
 * (the calls of one turn, run in parallel) are queued and sent to the worker as one batch, and
 * each call's promise settles with that call's own result as the worker reports it.
 *
 * Timeouts: the worker times each call from its own start and reports a call that never settled
 * (`timedOut`). If the worker itself falls silent (a synchronous endless loop the engine cannot
 * interrupt, as in the Node sandbox), the host gives up on the batch once the blocking call's
 * timeout has passed since the worker's last report. The blocking call is the one the worker
 * labelled last (`running`, see node-call-tracker.ts); only without a label does the host guess
 * (the first open call the worker started) and wait for the shortest timeout of the open calls.
 * Either way exactly one call is reported as timed out and `timedOut` is called, which stops the
 * worker; the other open calls then end as stopped, never to be run again.
 */
import { nextTask } from '../core/loop/index'
import { pushCallJson } from '../core/util/json-walk'
import { postInTextParts } from './text-parts'
import type { Settled } from './request-client'
import type { BatchCall, BatchResult, HostToSandbox, SandboxToHost } from './protocol'
import type { ExecuteResult } from './runtime'

/** How one call of a batch ended, as the host sees it. Durations in ms. */
export type BatchOutcome =
  | { kind: 'result'; result: ExecuteResult; durationMs: number }
  /** It did not finish within its timeout; the worker is being stopped. */
  | { kind: 'timeout'; durationMs: number }
  /**
   * The worker stopped (or was stopped) before the call finished; `reason` says why. `running`
   * marks the call whose code the worker ran last (the batch's only call, or the labelled one),
   * and the others name its tool in `blamed` (and its call in `blamedCallId`) when it is known.
   * `notStarted` marks a call the worker had surely not begun (it reports each slice of calls
   * before starting it): it never ran, so it had no effects.
   */
  | { kind: 'stopped'; reason: string; running?: boolean; blamed?: string; blamedCallId?: string; notStarted?: boolean }
  /** The worker's answer about this call could not be read. */
  | { kind: 'invalid'; reason: string }

/** What a batch queue needs from its sandbox host. */
export interface BatchQueueDeps {
  /** Posts one request to the worker; interim messages of it go to `onInterim`. */
  send(make: (requestId: string) => HostToSandbox, onInterim: (message: SandboxToHost) => void): Promise<Settled<SandboxToHost>>
  /** `call` timed out: stop the worker. The batch's other open calls then end through `send`'s `stopped`. */
  timedOut(call: BatchCall): void
  /**
   * The label (`requestId#index`) of the call whose code the worker ran last, readable while it
   * is blocked; undefined when unknown.
   */
  running?(): string | undefined
  /**
   * Asked when a call passed its timeout, before it is reported: resolves true when the worker
   * ran out of memory meanwhile (`send` then settles `stopped`, and the calls end through it).
   * Absent where the platform cannot tell.
   */
  outOfMemoryVerdict?(): Promise<boolean> | undefined
  /** Monotonic clock, ms. */
  now(): number
  /**
   * Posts one part of a batch's text ahead of it (see text-parts.ts); without it, the text goes
   * in the batch's own message whatever its length.
   */
  postTextPart?(message: { type: 'text-part'; key: string; text: string }): void
  /** Waits between two parts (a macrotask, so the page can paint). Default: `nextTask`. */
  pause?(): Promise<void>
  /** Waits before giving up on a silent worker, past the shortest timeout of the open calls, ms. Default 500. */
  silenceSlackMs?: number
}

/** Queues tool calls into batches; see the module comment. */
export interface ToolBatchQueue {
  /** Queues `call` for the next batch (sent once the current job is over) and resolves with how it ended. Never rejects. */
  enqueue(call: BatchCall): Promise<BatchOutcome>
}

interface Entry {
  call: BatchCall
  resolve: (outcome: BatchOutcome) => void
  settled: boolean
}

const DEFAULT_SILENCE_SLACK_MS = 500

/** Creates a queue over one worker. */
export function createToolBatchQueue(deps: BatchQueueDeps): ToolBatchQueue {
  const slackMs = deps.silenceSlackMs ?? DEFAULT_SILENCE_SLACK_MS
  let queued: Entry[] = []

  function flush(): void {
    const entries = queued
    queued = []
    if (entries.length > 0) void sendBatch(entries)
  }

  async function sendBatch(entries: Entry[]): Promise<void> {
    let open = entries.length
    let started = 0
    let lastHeard = deps.now()
    let firstOpen = 0
    /** How many open calls have each timeout: the shortest one bounds the worker's silence. */
    const openByTimeout = new Map<number, number>()
    for (const entry of entries) openByTimeout.set(entry.call.timeoutMs, (openByTimeout.get(entry.call.timeoutMs) ?? 0) + 1)
    let silence: ReturnType<typeof setTimeout> | undefined
    let gaveUp = false

    const end = (entry: Entry, outcome: BatchOutcome) => {
      if (entry.settled) return
      entry.settled = true
      open--
      const left = (openByTimeout.get(entry.call.timeoutMs) ?? 1) - 1
      if (left === 0) openByTimeout.delete(entry.call.timeoutMs)
      else openByTimeout.set(entry.call.timeoutMs, left)
      entry.resolve(outcome)
    }
    /** The call that passed its timeout while the host asks whether the worker is running out of memory. */
    let awaitingVerdict: Entry | undefined
    /** Ends the open calls with `outcome`, but the one awaiting its verdict (unless the worker is gone). */
    const endRest = (outcome: BatchOutcome) => {
      for (const entry of entries) if (entry !== awaitingVerdict || outcome.kind === 'stopped') end(entry, outcome)
    }
    let batchId: string | undefined
    /** The open call of this batch whose code the worker labelled last: the one blocking it. */
    const labelled = (): Entry | undefined => {
      const label = deps.running?.()
      const at = label?.lastIndexOf('#') ?? -1
      if (label === undefined || at < 0 || batchId === undefined || label.slice(0, at) !== batchId) return undefined
      const entry = entries[Number(label.slice(at + 1))]
      return entry && !entry.settled ? entry : undefined
    }
    /**
     * The call blocking the worker: the labelled one, else the first open call the worker has
     * started (the one most likely still running), else the first open one.
     */
    const culprit = (): Entry | undefined => {
      const known = labelled()
      if (known) return known
      while (firstOpen < entries.length && entries[firstOpen]?.settled) firstOpen++
      for (let at = firstOpen; at < Math.min(started, entries.length); at++) if (!entries[at]?.settled) return entries[at]
      return entries[firstOpen]
    }
    /** The call whose timeout stopped the worker, once it did. */
    let timedOutEntry: Entry | undefined
    const giveUp = (entry: Entry, durationMs: number) => {
      gaveUp = true
      clearTimeout(silence)
      const timeOut = () => {
        awaitingVerdict = undefined
        if (entry.settled) return
        timedOutEntry = entry
        end(entry, { kind: 'timeout', durationMs })
        deps.timedOut(entry.call)
      }
      // A memory bomb may pass its timeout before its memory cap: it is reported as what it is.
      const verdict = deps.outOfMemoryVerdict?.()
      if (!verdict) {
        timeOut()
        return
      }
      awaitingVerdict = entry
      void verdict.then((outOfMemory) => {
        if (!outOfMemory) timeOut()
        // The worker's crash normally ends it through `send`; not when the batch had already ended.
        else if (!entry.settled) end(entry, { kind: 'stopped', reason: 'The sandbox ran out of memory.', running: true })
        awaitingVerdict = undefined
      }, timeOut)
    }
    const armSilence = () => {
      clearTimeout(silence)
      if (open === 0 || gaveUp) return
      let shortest = Infinity
      for (const timeoutMs of openByTimeout.keys()) shortest = Math.min(shortest, timeoutMs)
      silence = setTimeout(onSilence, Math.max(0, lastHeard + shortest + slackMs - deps.now()))
    }
    const onSilence = () => {
      if (gaveUp) return
      const entry = culprit()
      if (!entry) return
      // The blocking call is known: it gets its own timeout, which may be longer than the shortest.
      const due = labelled() === entry ? lastHeard + entry.call.timeoutMs + slackMs : 0
      if (due > deps.now()) silence = setTimeout(onSilence, due - deps.now())
      else giveUp(entry, Math.round(deps.now() - lastHeard))
    }
    const take = (message: SandboxToHost) => {
      if (message.type !== 'tool-results' || gaveUp) return
      lastHeard = deps.now()
      started = Math.max(started, message.started)
      let timedOut: { entry: Entry; result: BatchResult } | undefined
      for (const result of message.results) {
        const entry = entries[result.index]
        if (!entry || entry.settled) continue
        if (result.timedOut) {
          timedOut ??= { entry, result }
          continue
        }
        end(entry, { kind: 'result', result: result.result, durationMs: result.durationMs })
      }
      if (timedOut) giveUp(timedOut.entry, timedOut.result.durationMs)
      else armSilence()
    }

    const pieces: string[] = ['[']
    try {
      for (let index = 0; index < entries.length; index++) {
        if (index > 0) pieces.push(',')
        pushCallJson(entries[index]!.call, pieces)
      }
    } catch (error) {
      endRest({ kind: 'invalid', reason: `The tool calls could not be sent: ${error instanceof Error ? error.message : String(error)}` })
      return
    }
    pieces.push(']')
    // A turn of 100 000 calls is megabytes of text: it goes ahead in parts, one task each.
    const calls = deps.postTextPart ? await postInTextParts(pieces, deps.postTextPart, deps.pause ?? nextTask) : pieces.join('')
    lastHeard = deps.now()
    armSilence()
    const reply = await deps.send((requestId) => {
      batchId = requestId
      return { type: 'execute-tools', requestId, calls }
    }, take)
    clearTimeout(silence)
    if (reply.status === 'reply') {
      const message = reply.message
      if (message.type === 'tool-results') take(message)
      else if (message.type === 'protocol-error') endRest({ kind: 'invalid', reason: `The sandbox could not read the tool calls: ${message.message}` })
      else endRest({ kind: 'invalid', reason: `Unexpected reply "${message.type}" to tool calls.` })
      clearTimeout(silence)
      endRest({ kind: 'invalid', reason: 'The sandbox ended the batch of tool calls without answering this one.' })
    } else if (reply.status === 'stopped') {
      // The call the worker was running when it died (ran out of memory) is told apart from the
      // ones it took down with it.
      const running = entries.length === 1 ? entries[0] : labelled()
      if (running && !running.settled) end(running, { kind: 'stopped', reason: reply.reason, running: true })
      const cause = timedOutEntry ?? running
      const blame = cause ? { blamed: cause.call.name, blamedCallId: cause.call.callId } : {}
      for (let at = started; at < entries.length; at++) {
        const entry = entries[at] as Entry
        if (entry !== awaitingVerdict) end(entry, { kind: 'stopped', reason: reply.reason, notStarted: true, ...blame })
      }
      endRest({ kind: 'stopped', reason: reply.reason, ...(running ? { blamed: running.call.name, blamedCallId: running.call.callId } : {}) })
    } else if (reply.status === 'invalid') {
      endRest({ kind: reply.status, reason: reply.reason })
    } else {
      endRest({ kind: 'invalid', reason: 'The tool calls timed out.' })
    }
  }

  return {
    enqueue(call) {
      return new Promise<BatchOutcome>((resolve) => {
        queued.push({ call, resolve, settled: false })
        // Calls the engine starts together reach this point in the same round of jobs: one batch.
        if (queued.length === 1) queueMicrotask(flush)
      })
    },
  }
}
