/**
 * The page's side of the log-import worker. One host owns one worker, and the worker holds
 * one imported log: the page starts a new host for each import and drops the old one only
 * once the new import has succeeded, so a failed or cancelled import leaves the open log as it
 * was. Every message from the worker is validated before use; replies are matched to their
 * request by `requestId`.
 */
import type { SessionEvent } from '../core/loop/index'
import type { ToolSpec } from '../core/tools/types'
import type { PhraseRef } from '../core/util'
import { traceRef } from '../core/trace/trace-text'
import { createRequestClient } from './request-client'
import { logImportToHostSchema, type ConversationSummary, type HostToLogImport, type ImportStage, type LogImportToHost } from './log-import-protocol'

export type { ConversationSummary, ImportStage } from './log-import-protocol'

/** How an import (or a re-check with other tools) ended. */
export type ImportReply =
  | {
      kind: 'log'
      /** The log format id that was read. */
      format: string
      /** The compact index, in log order. */
      conversations: ConversationSummary[]
    }
  /** A Toolstep session, workspace or tools file: its text, for the page to open as before. */
  | { kind: 'passthrough'; text: string }
  | { kind: 'failed'; error: string; errorPhrase?: PhraseRef }
  /** Cancelled, or the host was disposed before the reply came. */
  | { kind: 'cancelled' }

/** Called with the stage and the overall fraction done (0..1). */
export type ProgressListener = (stage: ImportStage, fraction: number) => void

/** A worker as the host needs it (a `Worker` fits; tests may pass a fake). */
export interface LogImportEndpoint {
  postMessage(message: HostToLogImport): void
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void
  terminate(): void
}

/** The page's handle on one log-import worker. */
export interface LogImportHost {
  /** Reads and imports `file` in the worker, reporting progress. Never rejects. */
  importFile(file: Blob, tools: readonly ToolSpec[] | null, onProgress?: ProgressListener): Promise<ImportReply>
  /** Reads and imports several files as one log (recorded request/response bodies, paired by name). Never rejects. */
  importFiles(files: readonly { name: string; file: Blob }[], tools: readonly ToolSpec[] | null, onProgress?: ProgressListener): Promise<ImportReply>
  /** Re-checks the held log against `tools` (`null`: the log's own definitions) and returns the new index. Never rejects. */
  reindex(tools: readonly ToolSpec[] | null, onProgress?: ProgressListener): Promise<ImportReply>
  /** Replay events of conversation `index`. Never rejects. */
  replay(index: number, tools: readonly ToolSpec[] | null): Promise<{ ok: true; events: SessionEvent[] } | { ok: false; error: string }>
  /**
   * Reads `file` as one session (Compare sessions): a session file's events, or the replay events
   * of conversation `conversation` (default 0) of a log, reporting progress. What the worker
   * holds is untouched. Never rejects; `cancelled` when the host was disposed first.
   */
  readSession(
    file: Blob,
    options?: { conversation?: number; onProgress?: ProgressListener },
  ): Promise<{ ok: true; events: SessionEvent[]; format: string; conversations: number } | { ok: false; error: string; errorPhrase?: PhraseRef; cancelled?: true }>
  /** Indexes of the conversations matching `text`; `null` when the host was disposed first. Never rejects. */
  search(text: string): Promise<number[] | null>
  /** Stops the worker; pending requests resolve as cancelled. */
  dispose(): void
}

/** Constructed the Vite way so the worker is bundled as its own chunk (and works offline). */
function defaultWorker(): LogImportEndpoint {
  return new Worker(new URL('./log-import.worker.ts', import.meta.url), { type: 'module', name: 'toolstep-log-import' })
}

type Answer = { message: LogImportToHost | null; slices: ConversationSummary[][] }

/** Starts a log-import worker. */
export function createLogImportHost(createWorker: () => LogImportEndpoint = defaultWorker): LogImportHost {
  const worker = createWorker()
  let alive = true
  const client = createRequestClient<HostToLogImport, LogImportToHost>({
    post: (message) => worker.postMessage(message),
    schema: logImportToHostSchema,
    requestIdOf: (message) => message.requestId,
    isInterim: (message) => message.type === 'progress' || message.type === 'index-slice',
  })

  worker.addEventListener('message', (event) => {
    if (alive) client.receive(event.data)
  })
  /** Why the worker died, once it has (its English is the reason pending requests fail with). */
  let crash: PhraseRef | undefined
  worker.addEventListener('error', (event) => {
    event.preventDefault()
    crash = traceRef('workerStopped', { error: event.message || traceRef('workerUnknownError') })
    client.failPending(crash.english)
  })

  async function request(make: (requestId: string) => HostToLogImport, progress?: ProgressListener): Promise<Answer> {
    const slices: ConversationSummary[][] = []
    const settled = await client.send(make, {
      onInterim(message) {
        if (message.type === 'progress') progress?.(message.stage, message.fraction)
        else if (message.type === 'index-slice') slices.push(message.conversations)
      },
    })
    switch (settled.status) {
      case 'reply':
        return { message: settled.message, slices }
      case 'stopped':
        // Disposed: cancelled. A worker that died fails the request with its reason.
        return { message: alive ? { type: 'failed', requestId: '', error: settled.reason, ...(crash?.english === settled.reason ? { errorPhrase: crash } : {}) } : null, slices }
      case 'invalid':
        return { message: { type: 'failed', requestId: '', error: settled.reason.replace('The worker', 'The import worker') }, slices }
      case 'timeout':
        return { message: failed(traceRef('workerNoAnswer')), slices }
    }
  }

  function toReply({ message, slices }: { message: LogImportToHost | null; slices: ConversationSummary[][] }): ImportReply {
    if (message === null) return { kind: 'cancelled' }
    switch (message.type) {
      case 'imported': {
        const conversations = slices.flat()
        if (conversations.length !== message.total) return failedReply(traceRef('workerListed', { listed: conversations.length, total: message.total }))
        return { kind: 'log', format: message.format, conversations }
      }
      case 'passthrough':
        return { kind: 'passthrough', text: message.text }
      case 'failed':
        return { kind: 'failed', error: message.error, ...(message.errorPhrase ? { errorPhrase: message.errorPhrase } : {}) }
      case 'protocol-error':
        return { kind: 'failed', error: message.message }
      default:
        return failedReply(traceRef('workerUnexpected', { type: message.type }))
    }
  }

  return {
    async importFile(file, tools, onProgress) {
      const name = file instanceof File ? { name: file.name } : {}
      return toReply(await request((requestId) => ({ type: 'import', requestId, file, ...name, tools: tools ? [...tools] : null }), onProgress))
    },
    async importFiles(files, tools, onProgress) {
      const first = files[0]
      if (!first) return failedReply(traceRef('noFile'))
      return toReply(await request((requestId) => ({ type: 'import', requestId, file: first.file, files: [...files], tools: tools ? [...tools] : null }), onProgress))
    },
    async reindex(tools, onProgress) {
      return toReply(await request((requestId) => ({ type: 'reindex', requestId, tools: tools ? [...tools] : null }), onProgress))
    },
    async replay(index, tools) {
      const { message } = await request((requestId) => ({ type: 'replay', requestId, index, tools: tools ? [...tools] : null }))
      if (message?.type === 'replayed') return { ok: true, events: message.events }
      if (message === null) return { ok: false, error: traceRef('workerClosed').english }
      return { ok: false, error: message.type === 'failed' || message.type === 'protocol-error' ? ('error' in message ? message.error : message.message) : `Unexpected reply: ${message.type}.` }
    },
    async readSession(file, options = {}) {
      const name = file instanceof File ? { name: file.name } : {}
      const conversation = options.conversation === undefined ? {} : { conversation: options.conversation }
      const { message } = await request((requestId) => ({ type: 'read-session', requestId, file, ...name, ...conversation }), options.onProgress)
      if (message === null) return { ok: false, error: traceRef('workerCancelled').english, cancelled: true }
      if (message.type === 'session-read') return { ok: true, events: message.events, format: message.format, conversations: message.conversations }
      if (message.type === 'failed') return { ok: false, error: message.error, ...(message.errorPhrase ? { errorPhrase: message.errorPhrase } : {}) }
      if (message.type === 'protocol-error') return { ok: false, error: message.message }
      const unexpected = traceRef('workerUnexpected', { type: message.type })
      return { ok: false, error: unexpected.english, errorPhrase: unexpected }
    },
    async search(text) {
      const { message } = await request((requestId) => ({ type: 'search', requestId, text }))
      return message?.type === 'matches' ? message.indexes : null
    },
    dispose() {
      if (!alive) return
      alive = false
      worker.terminate()
      client.stop(traceRef('workerClosed').english)
    },
  }
}

/** A failure saying `error`, as the worker would send it. */
function failed(error: PhraseRef): LogImportToHost {
  return { type: 'failed', requestId: '', error: error.english, errorPhrase: error }
}

/** An import that failed saying `error`. */
function failedReply(error: PhraseRef): ImportReply {
  return { kind: 'failed', error: error.english, errorPhrase: error }
}
