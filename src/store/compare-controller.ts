/**
 * Compare sessions: two sides, each a session file, a logged conversation or the open session.
 * Files are read in a log-import worker of their own (one per side and file, dropped when done),
 * never on the page, with progress — a big log must not block it. The diff itself is the pure
 * `diffTwoSessions` over the two sides' events.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { SessionEvent } from '../core/loop'
import type { ImportStage, LogImportHost } from '../sandbox/log-import-host'
import type { RunState } from './run-store'
import type { PhraseRef } from '../core/util'

/** One side of the comparison. */
export type CompareSide =
  | null
  | { status: 'reading'; name: string; stage: ImportStage; fraction: number }
  | { status: 'ready'; name: string; events: SessionEvent[]; format: string; conversations: number }
  /** `error` in English; `errorPhrase`, when the reader phrased it, the same for the UI to translate. */
  | { status: 'failed'; name: string; error: string; errorPhrase?: PhraseRef }

export interface CompareState {
  a: CompareSide
  b: CompareSide
}

/** What the compare controller works with. */
export interface CompareControllerDeps {
  run: StoreApi<RunState>
  createImportHost(): LogImportHost
}

/** The compare slice and its actions. */
export interface CompareController {
  store: StoreApi<CompareState>
  /** Reads `file` for `side` in a worker; resolves when it is read (or failed, or superseded). */
  compareFile(side: 'a' | 'b', file: Blob & { readonly name: string }): Promise<void>
  /** Uses the open session (live run or replayed conversation) as `side`; false when nothing is open. */
  compareOpenSession(side: 'a' | 'b', name: string): boolean
  /** Stops the workers of reads in progress. */
  dispose(): void
}

/** A compare controller with both sides empty. */
export function createCompareController(deps: CompareControllerDeps): CompareController {
  const store = createStore<CompareState>()(() => ({ a: null, b: null }))
  const reading: Record<'a' | 'b', LogImportHost | null> = { a: null, b: null }

  function stop(side: 'a' | 'b'): void {
    reading[side]?.dispose()
    reading[side] = null
  }

  return {
    store,
    async compareFile(side, file) {
      stop(side)
      const host = deps.createImportHost()
      reading[side] = host
      store.setState({ [side]: { status: 'reading', name: file.name, stage: 'reading', fraction: 0 } })
      const reply = await host.readSession(file, {
        onProgress: (stage, fraction) => {
          if (reading[side] === host) store.setState({ [side]: { status: 'reading', name: file.name, stage, fraction } })
        },
      })
      // A newer pick for this side (or dispose) replaced this read: its answer is dropped.
      if (reading[side] !== host) return
      stop(side)
      store.setState({
        [side]: reply.ok ? { status: 'ready', name: file.name, events: reply.events, format: reply.format, conversations: reply.conversations } : { status: 'failed', name: file.name, error: reply.error, ...(reply.errorPhrase ? { errorPhrase: reply.errorPhrase } : {}) },
      })
    },
    compareOpenSession(side, name) {
      const { events } = deps.run.getState()
      if (events.length === 0) return false
      stop(side)
      store.setState({ [side]: { status: 'ready', name, events, format: 'open', conversations: 1 } })
      return true
    },
    dispose() {
      stop('a')
      stop('b')
    },
  }
}
