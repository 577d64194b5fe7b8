/**
 * `fold(events.slice(0, index + 1))` for a log looked at again and again (the inspector and the
 * status bar fold up to the cursor on every move): states are kept every `every` events, so a
 * move folds at most `every` events, and a log that grew by appending (a live run's next phase
 * is a new array holding the same event objects, then more) reuses the states of the part it
 * shares with the log before it. Folding a 100 000-event turn once costs ~0.5 s; moving the
 * cursor through it then costs what folding ≤ `every` events costs.
 */
import type { SessionEvent } from './events'
import { extendsLog } from './append-fold'
import { apply, initialLoopState, type LoopState } from './reducer'

/** Folds prefixes of logs; see the file comment. Pure from the caller's side (same answers as `fold`). */
export interface FoldCache {
  /** The state after `events[0..index]`; `initialLoopState` for index < 0. */
  foldTo(events: readonly SessionEvent[], index: number): LoopState
}

/** A fold cache keeping a state every `every` events (default 1 000) of the last log it folded. */
export function createFoldCache(every = 1000): FoldCache {
  let log: readonly SessionEvent[] = []
  /** checkpoints[k] is the state after the first k × every events of `log`. */
  let checkpoints: LoopState[] = [initialLoopState]

  /** Keeps the checkpoints that cover only events `next` shares with the last log (same objects). */
  function adopt(next: readonly SessionEvent[]): void {
    if (next === log) return
    // A live run's next log extends the last one: every checkpoint stays, found in O(1).
    if (extendsLog(log, next)) {
      log = next
      return
    }
    let shared = 0
    const limit = Math.min(next.length, log.length)
    while (shared < limit && next[shared] === log[shared]) shared++
    checkpoints = checkpoints.slice(0, Math.floor(shared / every) + 1)
    log = next
  }

  return {
    foldTo(events, index) {
      if (index < 0) return initialLoopState
      adopt(events)
      const last = Math.min(index, events.length - 1)
      const target = Math.floor((last + 1) / every)
      // Extend the checkpoints up to the one at or before index + 1 events.
      while (checkpoints.length <= target) {
        const k = checkpoints.length
        let state = checkpoints[k - 1]!
        for (let i = (k - 1) * every; i < k * every; i++) state = apply(state, events[i]!)
        checkpoints.push(state)
      }
      let state = checkpoints[target]!
      for (let i = target * every; i <= last; i++) state = apply(state, events[i]!)
      return state
    },
  }
}
