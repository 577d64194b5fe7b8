/**
 * Crash-loop guard. User code runs when the workspace is checked (on load and after edits)
 * and when it is run; code that takes the whole tab down (out of memory) would otherwise run
 * again on every reload, because the workspace is already saved. So a marker is written to
 * storage before the code runs and removed when it comes back; a marker found at start-up
 * means the tab ended while that code ran, and the playground then runs nothing by itself.
 */
import { readItem, writeItem, type KeyValueStorage } from './storage'

/** Storage key of the marker: JSON `{ "kinds": ["check" | "run", …], "since": ISO 8601 time }`. */
export const PENDING_KEY = 'toolstep.pending'

/** What was running: the code check (loading tools.ts and model.ts) or a run of the loop. */
export type PendingKind = 'check' | 'run'

/** Work that never came back, found at start-up. */
export interface InterruptedWork {
  /** `run` when a run was among the work in flight (it includes loading the code), else `check`. */
  kind: PendingKind
  /** When the work started (ISO 8601, from the marker). */
  since: string | null
}

/** The guard: `begin` before user code runs, and the returned `end` once it came back. */
export interface CrashGuard {
  /** What the previous page left unfinished, read once at creation; `null` when it finished everything. */
  readonly interrupted: InterruptedWork | null
  /** Marks `kind` as in flight; the returned function (idempotent) marks it done. */
  begin(kind: PendingKind): () => void
  /** Removes the marker left by the previous page (the user chose what to do about it). */
  clearInterrupted(): void
  /**
   * The page is being left on purpose (reload, navigation, closed tab: the `pagehide` event).
   * Whatever this page has in flight did not take the tab down, so its marker is removed (a
   * previous page's marker stays); a crashed tab fires no such event and keeps its marker.
   */
  pageHidden(): void
  /** The page came back from the back/forward cache: work still in flight is marked again. */
  pageShown(): void
}

function readMarker(text: string | null): InterruptedWork | null {
  if (text === null) return null
  try {
    const data = JSON.parse(text) as { kinds?: unknown; since?: unknown }
    const kinds = Array.isArray(data.kinds) ? data.kinds : []
    return { kind: kinds.includes('run') ? 'run' : 'check', since: typeof data.since === 'string' ? data.since : null }
  } catch {
    // Unreadable marker: something was in flight all the same.
    return { kind: 'check', since: null }
  }
}

/**
 * A guard over `storage`. `now` gives the time written into the marker. A storage that cannot
 * be written (full) only loses the guard, never the work.
 */
export function createCrashGuard(storage: KeyValueStorage, now: () => Date = () => new Date()): CrashGuard {
  const interrupted = readMarker(readItem(storage, PENDING_KEY))
  /** Work in flight in this page; the previous page's marker stays until this page writes its own. */
  const inFlight = new Map<number, PendingKind>()
  let nextId = 0
  let since: string | null = null
  /** The marker this page wrote last, to tell it from one another page left. */
  let written: string | null = null

  function write(): void {
    if (inFlight.size === 0) {
      // Only this page's own mark: one another tab wrote meanwhile (and crashed) stays.
      if (written !== null && readItem(storage, PENDING_KEY) === written) writeItem(storage, PENDING_KEY, null)
      since = null
      written = null
      return
    }
    since ??= now().toISOString()
    written = JSON.stringify({ kinds: [...new Set(inFlight.values())], since })
    writeItem(storage, PENDING_KEY, written)
  }

  return {
    interrupted,
    begin(kind) {
      const id = nextId++
      inFlight.set(id, kind)
      write()
      return () => {
        if (inFlight.delete(id)) write()
      }
    },
    clearInterrupted() {
      if (inFlight.size === 0) writeItem(storage, PENDING_KEY, null)
    },
    pageHidden() {
      // Only this page's own mark: a marker another page left stays until the user answers it.
      if (inFlight.size > 0 && written !== null && readItem(storage, PENDING_KEY) === written) writeItem(storage, PENDING_KEY, null)
    },
    pageShown() {
      if (inFlight.size > 0) write()
    },
  }
}
