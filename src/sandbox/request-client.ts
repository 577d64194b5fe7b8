/**
 * One typed request/reply client for the page's (or Node's) side of a worker: both the sandbox
 * host and the log-import host use it. It matches replies to requests by `requestId`, hands
 * interim messages (progress) to the request they belong to, enforces an optional per-request
 * timeout, and settles every pending request when the worker goes away.
 *
 * Request ids are random UUIDs (`crypto.randomUUID()`), so code that can see the worker's
 * global channel cannot guess the id of a pending request. The real protection against forged
 * replies is the private channel the hosts talk over (see `worker-channel.ts`); unguessable ids
 * are the second line.
 */
import type { z } from 'zod'

/** How one request ended: a reply, its timeout, or the worker stopping first. */
export type Settled<Reply> =
  | { status: 'reply'; message: Reply }
  | { status: 'timeout' }
  | { status: 'stopped'; reason: string }
  /** The worker answered with a message that failed the schema; `reason` says how. */
  | { status: 'invalid'; reason: string }

/** Options of one {@link RequestClient.send}. */
export interface SendOptions<Reply> {
  /** Settles `{ status: 'timeout' }` after this many ms from the post; none when omitted. */
  timeoutMs?: number
  /** Hears interim messages for this request (those {@link RequestClientOptions.isInterim} picks) without settling it. */
  onInterim?: (message: Reply) => void
}

/** What a client needs to know about the worker's protocol. */
export interface RequestClientOptions<Request, Reply> {
  /** Sends one request to the worker. */
  post(message: Request): void
  /** The schema every message from the worker is checked against before use. */
  schema: z.ZodType<Reply>
  /** The `requestId` a valid reply answers, if any. */
  requestIdOf(message: Reply): string | undefined
  /** True for messages that report on a request without ending it (progress, slices). */
  isInterim?(message: Reply): boolean
  /**
   * Hears what matched no pending request: valid messages for no request, and malformed data
   * (`malformed` set to the schema's first issue; `requestId` when the data carried one).
   */
  onUnmatched?(event: { message?: Reply; malformed?: string; requestId?: string }): void
}

/** A request/reply client over one worker; see the module comment. */
export interface RequestClient<Request, Reply> {
  /**
   * Posts the request `make(requestId)` builds and resolves with how it ended. Never rejects;
   * resolves `stopped` at once when the client was already stopped.
   */
  send(make: (requestId: string) => Request, options?: SendOptions<Reply>): Promise<Settled<Reply>>
  /** Feeds one message received from the worker (unvalidated). Never throws. */
  receive(data: unknown): void
  /** Settles every pending request with `reason`, and every later one at once. Idempotent. */
  stop(reason: string): void
  /** Settles pending requests with `reason` but keeps accepting new ones (the worker lives on). */
  failPending(reason: string): void
  /** Number of requests waiting for their reply. */
  readonly pendingCount: number
}

interface Entry<Reply> {
  settle(result: Settled<Reply>): void
  onInterim: ((message: Reply) => void) | undefined
}

/** A fresh unguessable request id. */
export function newRequestId(): string {
  return globalThis.crypto.randomUUID()
}

/** Creates a client; see {@link RequestClient}. */
export function createRequestClient<Request, Reply>(options: RequestClientOptions<Request, Reply>): RequestClient<Request, Reply> {
  const pending = new Map<string, Entry<Reply>>()
  let stoppedReason: string | undefined

  function settleAll(reason: string): void {
    const entries = [...pending.values()]
    pending.clear()
    for (const entry of entries) entry.settle({ status: 'stopped', reason })
  }

  return {
    get pendingCount() {
      return pending.size
    },

    send(make, sendOptions = {}) {
      if (stoppedReason !== undefined) return Promise.resolve({ status: 'stopped', reason: stoppedReason })
      const requestId = newRequestId()
      return new Promise<Settled<Reply>>((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined
        const entry: Entry<Reply> = {
          settle(result) {
            clearTimeout(timer)
            resolve(result)
          },
          onInterim: sendOptions.onInterim,
        }
        pending.set(requestId, entry)
        try {
          options.post(make(requestId))
        } catch (error) {
          pending.delete(requestId)
          entry.settle({ status: 'stopped', reason: `The request could not be sent: ${error instanceof Error ? error.message : String(error)}` })
          return
        }
        if (sendOptions.timeoutMs !== undefined) {
          timer = setTimeout(() => {
            if (pending.get(requestId) !== entry) return
            pending.delete(requestId)
            resolve({ status: 'timeout' })
          }, sendOptions.timeoutMs)
        }
      })
    },

    receive(data) {
      const parsed = options.schema.safeParse(data)
      if (!parsed.success) {
        const id = typeof data === 'object' && data !== null && 'requestId' in data && typeof data.requestId === 'string' ? data.requestId : undefined
        const issue = parsed.error.issues[0]
        const malformed = issue ? `${issue.path.map(String).join('.') || '(message)'}: ${issue.message}` : 'invalid message'
        const entry = id === undefined ? undefined : pending.get(id)
        if (entry && id !== undefined) {
          // A reply that cannot be read still ends its request: waiting for the timeout would hide the cause.
          pending.delete(id)
          entry.settle({ status: 'invalid', reason: `The worker sent a malformed reply (${malformed}).` })
          return
        }
        options.onUnmatched?.({ malformed, ...(id === undefined ? {} : { requestId: id }) })
        return
      }
      const message = parsed.data
      const id = options.requestIdOf(message)
      const entry = id === undefined ? undefined : pending.get(id)
      if (!entry || id === undefined) {
        options.onUnmatched?.({ message })
        return
      }
      if (options.isInterim?.(message)) {
        entry.onInterim?.(message)
        return
      }
      pending.delete(id)
      entry.settle({ status: 'reply', message })
    },

    stop(reason) {
      if (stoppedReason !== undefined) return
      stoppedReason = reason
      settleAll(reason)
    },

    failPending(reason) {
      settleAll(reason)
    },
  }
}
