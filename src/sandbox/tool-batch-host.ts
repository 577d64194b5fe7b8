/**
 * The host's side of `execute-tools` batches: the tool calls the engine starts in the same job
 * (the calls of one turn, run in parallel) are queued and sent to the worker as one batch, and
 * each call's promise settles with that call's own result as the worker reports it.
 *
 * Timeouts: the worker times each call from its own start and reports a call that never settled
 * (`timedOut`). If the worker itself falls silent (a synchronous endless loop the engine cannot
 * interrupt, as in the Node sandbox), the host gives up on the batch after the shortest timeout of
 * its open calls has passed since the worker's last report. Either way exactly one call is
 * reported as timed out and `timedOut` is called, which stops the worker; the other open calls
 * then end as stopped, never to be run again.
 */
import type { Settled } from './request-client'
import type { BatchCall, BatchResult, HostToSandbox, SandboxToHost } from './protocol'
import type { ExecuteResult } from './runtime'

/** How one call of a batch ended, as the host sees it. Durations in ms. */
export type BatchOutcome =
  | { kind: 'result'; result: ExecuteResult; durationMs: number }
  /** It did not finish within its timeout; the worker is being stopped. */
  | { kind: 'timeout'; durationMs: number }
  /** The worker stopped (or was stopped) before the call finished; `reason` says why. */
  | { kind: 'stopped'; reason: string }
  /** The worker's answer about this call could not be read. */
  | { kind: 'invalid'; reason: string }

/** What a batch queue needs from its sandbox host. */
export interface BatchQueueDeps {
  /** Posts one request to the worker; interim messages of it go to `onInterim`. */
  send(make: (requestId: string) => HostToSandbox, onInterim: (message: SandboxToHost) => void): Promise<Settled<SandboxToHost>>
  /** `call` timed out: stop the worker. The batch's other open calls then end through `send`'s `stopped`. */
  timedOut(call: BatchCall): void
  /** Monotonic clock, ms. */
  now(): number
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
    const endRest = (outcome: BatchOutcome) => {
      for (const entry of entries) end(entry, outcome)
    }
    /** The first open call the worker has started (the one most likely still running), else the first open one. */
    const culprit = (): Entry | undefined => {
      while (firstOpen < entries.length && entries[firstOpen]?.settled) firstOpen++
      for (let at = firstOpen; at < Math.min(started, entries.length); at++) if (!entries[at]?.settled) return entries[at]
      return entries[firstOpen]
    }
    const giveUp = (entry: Entry, durationMs: number) => {
      gaveUp = true
      clearTimeout(silence)
      end(entry, { kind: 'timeout', durationMs })
      deps.timedOut(entry.call)
    }
    const armSilence = () => {
      clearTimeout(silence)
      if (open === 0 || gaveUp) return
      let shortest = Infinity
      for (const timeoutMs of openByTimeout.keys()) shortest = Math.min(shortest, timeoutMs)
      silence = setTimeout(() => {
        const entry = culprit()
        if (entry && !gaveUp) giveUp(entry, Math.round(deps.now() - lastHeard))
      }, Math.max(0, lastHeard + shortest + slackMs - deps.now()))
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

    let calls: string
    try {
      calls = JSON.stringify(entries.map((entry) => entry.call))
    } catch (error) {
      endRest({ kind: 'invalid', reason: `The tool calls could not be sent: ${error instanceof Error ? error.message : String(error)}` })
      return
    }
    armSilence()
    const reply = await deps.send((requestId) => ({ type: 'execute-tools', requestId, calls }), take)
    clearTimeout(silence)
    if (reply.status === 'reply') {
      const message = reply.message
      if (message.type === 'tool-results') take(message)
      else if (message.type === 'protocol-error') endRest({ kind: 'invalid', reason: `The sandbox could not read the tool calls: ${message.message}` })
      else endRest({ kind: 'invalid', reason: `Unexpected reply "${message.type}" to tool calls.` })
      clearTimeout(silence)
      endRest({ kind: 'invalid', reason: 'The sandbox ended the batch of tool calls without answering this one.' })
    } else if (reply.status === 'stopped' || reply.status === 'invalid') {
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
