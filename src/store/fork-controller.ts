/**
 * What-if: fork a replayed conversation at an assistant turn and continue it live with the
 * current tools and mock model. Tool results before the fork come from the log (they are part
 * of the history), nothing before it is re-executed. The logged tail is kept for the diff view.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import { type SessionEvent, fold } from '../core/loop'
import type { ImportController } from './import-controller'
import type { ParseLabState } from './parse-lab-store'
import type { ReplayState } from './replay-store'
import type { RunController } from './run-controller'
import type { RunState } from './run-store'

export interface ForkState {
  /** The logged events from the fork point on, or `null` when there is no fork. */
  logged: SessionEvent[] | null
  /** Conversation the fork came from (index in the replay) and its label. */
  conversation: { index: number; label: string } | null
  /** Turn (1-based) the fork replaced. */
  turn: number
  /** Index of the forked decide in the replayed log, to return to it. */
  seq: number
}

/** What the fork controller works with. */
export interface ForkControllerDeps {
  run: StoreApi<RunState>
  replay: StoreApi<ReplayState>
  parseLab: StoreApi<ParseLabState>
  runner: RunController
  imports: ImportController
}

/** The fork slice and its actions. */
export interface ForkController {
  store: StoreApi<ForkState>
  /**
   * Forks the open replay at the decide `events[seq]` (a `model.responded` event): the model is
   * asked again from the messages before it. Resolves false when the code could not be loaded.
   */
  forkAt(seq: number): Promise<boolean>
  /** Forgets the fork (the diff view closes). */
  clearFork(): void
  /** Leaves the fork and reopens the logged conversation at the turn that was forked. */
  backToLog(): Promise<void>
}

const NO_FORK: ForkState = { logged: null, conversation: null, turn: 0, seq: 0 }

/** A fork controller with no fork open. */
export function createForkController(deps: ForkControllerDeps): ForkController {
  const store = createStore<ForkState>()(() => NO_FORK)
  const clearFork = (): void => store.setState(NO_FORK)

  return {
    store,
    async forkAt(seq) {
      const { events, mode } = deps.run.getState()
      const decide = events[seq]
      if (mode !== 'replay' || decide?.type !== 'model.responded') return false
      const history = [...fold(events.slice(0, seq)).conversation]
      const { selected, conversations } = deps.replay.getState()
      store.setState({
        logged: events.slice(seq),
        conversation: selected >= 0 ? { index: selected, label: conversations[selected]?.label ?? `Conversation ${selected + 1}` } : null,
        turn: decide.step + 1,
        seq,
      })
      deps.parseLab.getState().setView('diff')
      const ok = await deps.runner.runFrom(history)
      if (!ok) clearFork()
      return ok
    },
    clearFork,
    async backToLog() {
      const { conversation, seq } = store.getState()
      clearFork()
      if (!conversation) return
      await deps.imports.openConversation(conversation.index)
      deps.run.getState().setCursor(seq)
    },
  }
}
