/**
 * The session being looked at: its event log and the cursor. Everything the timeline
 * and inspector show is a pure fold of `events[0..cursor]`.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { SessionEvent } from '../core/loop'
import type { Workspace } from '../core/files'
import type { BreakHit } from '../core/debug'
import type { Phrase } from '../core/util'

/** Where the user's code failed before the loop could run (syntax error, bad import…). */
export interface CodeProblem {
  file: string
  message: string
  /** `message` as a phrase of STORE_TEXT when Toolstep wrote it (not the code's own error). */
  phrase?: Phrase
  line?: number
  column?: number
}

export type RunStatus = 'idle' | 'loading' | 'running' | 'stopped'

export interface RunState {
  events: SessionEvent[]
  /** Index of the event shown; -1 when the log is empty. */
  cursor: number
  status: RunStatus
  /** Live run of the workspace, or replay of an imported log. */
  mode: 'live' | 'replay'
  /** Why the last Run/Step could not start (one per file that failed), shown where it happened. */
  problems: CodeProblem[]
  /** The workspace the live run was started from (exported with the session). */
  workspace: Workspace | null
  /** The breakpoint Run last paused at (Run again continues past it); `null` when not paused. */
  breakHit: BreakHit | null
  /**
   * The user moved the cursor off the last event while a run was going: the run's new events
   * no longer move it (it follows the end again once the user goes back to the last event).
   */
  held: boolean
  setCursor(index: number): void
  reset(): void
}

/** A fresh run slice (empty log). */
export function createRunStore(): StoreApi<RunState> {
  return createStore<RunState>()((set) => ({
    events: [],
    cursor: -1,
    status: 'idle',
    mode: 'live',
    problems: [],
    workspace: null,
    breakHit: null,
    held: false,
    setCursor: (index) =>
      set((s) => {
        const cursor = Math.max(-1, Math.min(index, s.events.length - 1))
        // Looking at an earlier event mid-run: without this the next event took the view away.
        const held = s.status === 'running' ? cursor < s.events.length - 1 : s.held
        return { cursor, held }
      }),
    reset: () => set({ events: [], cursor: -1, status: 'idle', problems: [], workspace: null, mode: 'live', breakHit: null, held: false }),
  }))
}
