/**
 * The page's side of the log-import worker. One host owns one worker, and the worker holds
 * one imported log: the page starts a new host for each import and drops the old one only
 * once the new import has succeeded, so a failed or cancelled import leaves the open log as it
 * was. Every message from the worker is validated before use; replies are matched to their
 * request by `requestId`.
 */
import type { SessionEvent } from '../core/loop/events'
import type { ToolSpec } from '../core/tools/types'
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
  | { kind: 'failed'; error: string }
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
  /** Indexes of the conversations matching `text`; `null` when the host was disposed first. Never rejects. */
  search(text: string): Promise<number[] | null>
  /** Stops the worker; pending requests resolve as cancelled. */
  dispose(): void
}

type Pending = {
  settle(message: LogImportToHost | null): void
  progress?: ProgressListener
  slices?: ConversationSummary[][]
}

/** Constructed the Vite way so the worker is bundled as its own chunk (and works offline). */
function defaultWorker(): LogImportEndpoint {
  return new Worker(new URL('./log-import.worker.ts', import.meta.url), { type: 'module', name: 'toolstep-log-import' })
}

/** Starts a log-import worker. */
export function createLogImportHost(createWorker: () => LogImportEndpoint = defaultWorker): LogImportHost {
  const worker = createWorker()
  const pending = new Map<string, Pending>()
  let nextId = 0
  let alive = true

  worker.addEventListener('message', (event) => {
    if (!alive) return
    const parsed = logImportToHostSchema.safeParse(event.data)
    if (!parsed.success) {
      const data = event.data as { requestId?: unknown } | null
      const id = typeof data?.requestId === 'string' ? data.requestId : undefined
      const entry = id === undefined ? undefined : pending.get(id)
      if (entry && id !== undefined) {
        pending.delete(id)
        entry.settle({ type: 'failed', requestId: id, error: `The import worker sent a malformed reply: ${parsed.error.issues[0]?.message ?? 'unknown'}` })
      }
      return
    }
    const message = parsed.data
    const id = message.requestId
    const entry = id === undefined ? undefined : pending.get(id)
    if (!entry || id === undefined) return
    if (message.type === 'progress') {
      entry.progress?.(message.stage, message.fraction)
      return
    }
    if (message.type === 'index-slice') {
      ;(entry.slices ??= []).push(message.conversations)
      return
    }
    pending.delete(id)
    entry.settle(message)
  })
  worker.addEventListener('error', (event) => {
    event.preventDefault()
    failAll(`The import worker stopped: ${event.message || 'unknown error'}`)
  })

  function failAll(error: string): void {
    for (const [id, entry] of pending) entry.settle({ type: 'failed', requestId: id, error })
    pending.clear()
  }

  function request(make: (requestId: string) => HostToLogImport, progress?: ProgressListener): Promise<{ message: LogImportToHost | null; slices: ConversationSummary[][] }> {
    return new Promise((resolve) => {
      if (!alive) {
        resolve({ message: null, slices: [] })
        return
      }
      const requestId = `r${++nextId}`
      const entry: Pending = { progress, settle: (message) => resolve({ message, slices: entry.slices ?? [] }) }
      pending.set(requestId, entry)
      worker.postMessage(make(requestId))
    })
  }

  function toReply({ message, slices }: { message: LogImportToHost | null; slices: ConversationSummary[][] }): ImportReply {
    if (message === null) return { kind: 'cancelled' }
    switch (message.type) {
      case 'imported': {
        const conversations = slices.flat()
        if (conversations.length !== message.total) return { kind: 'failed', error: `The import worker listed ${conversations.length} of ${message.total} conversations.` }
        return { kind: 'log', format: message.format, conversations }
      }
      case 'passthrough':
        return { kind: 'passthrough', text: message.text }
      case 'failed':
        return { kind: 'failed', error: message.error }
      case 'protocol-error':
        return { kind: 'failed', error: message.message }
      default:
        return { kind: 'failed', error: `Unexpected reply from the import worker: ${message.type}.` }
    }
  }

  return {
    async importFile(file, tools, onProgress) {
      const name = file instanceof File ? { name: file.name } : {}
      return toReply(await request((requestId) => ({ type: 'import', requestId, file, ...name, tools: tools ? [...tools] : null }), onProgress))
    },
    async importFiles(files, tools, onProgress) {
      const first = files[0]
      if (!first) return { kind: 'failed', error: 'No file to import.' }
      return toReply(await request((requestId) => ({ type: 'import', requestId, file: first.file, files: [...files], tools: tools ? [...tools] : null }), onProgress))
    },
    async reindex(tools, onProgress) {
      return toReply(await request((requestId) => ({ type: 'reindex', requestId, tools: tools ? [...tools] : null }), onProgress))
    },
    async replay(index, tools) {
      const { message } = await request((requestId) => ({ type: 'replay', requestId, index, tools: tools ? [...tools] : null }))
      if (message?.type === 'replayed') return { ok: true, events: message.events }
      if (message === null) return { ok: false, error: 'The log was closed.' }
      return { ok: false, error: message.type === 'failed' || message.type === 'protocol-error' ? ('error' in message ? message.error : message.message) : `Unexpected reply: ${message.type}.` }
    },
    async search(text) {
      const { message } = await request((requestId) => ({ type: 'search', requestId, text }))
      return message?.type === 'matches' ? message.indexes : null
    },
    dispose() {
      if (!alive) return
      alive = false
      worker.terminate()
      for (const entry of pending.values()) entry.settle(null)
      pending.clear()
    },
  }
}
