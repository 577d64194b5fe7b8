/**
 * What-if: fork a replayed conversation at an assistant turn and continue it live with the
 * current tools and mock model. Tool results before the fork come from the log (they are part
 * of the history), nothing before it is re-executed. The logged tail is kept for the diff view.
 *
 * Edit and continue is a fork too: the user changes the model output of a decide or the result
 * of a call — in a live run or a replay — and the run goes on from there (`edit.applied`); the
 * original run is kept for the diff view and to go back to.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import { editRefusal, planEdit, type EditRefusal, type EditRequest } from '../core/debug'
import type { Workspace } from '../core/files'
import { type SessionEvent, fold } from '../core/loop'
import type { ImportController } from './import-controller'
import type { ParseLabState } from './parse-lab-store'
import type { ConversationSummary, ReplayState } from './replay-store'
import type { RunController } from './run-controller'
import type { RunState } from './run-store'

export interface ForkState {
  /** `fork`: a replay asked again from a turn; `edit`: a run or replay continued after an edit. */
  kind: 'fork' | 'edit'
  /** The logged (or original) events from the fork point on, or `null` when there is no fork. */
  logged: SessionEvent[] | null
  /** Where the fork's own events start to be compared with `logged` (0 for `fork`; the edited turn's decide for `edit`). */
  fromSeq: number
  /** The session before the edit, to go back to (`edit` of a live run only). */
  original: { events: SessionEvent[]; workspace: Workspace | null } | null
  /** Conversation the fork came from (index in the replay) and its label. */
  conversation: ForkedFrom | null
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
  /** Leaves the fork and reopens the logged conversation (or the original run) at the turn that was forked. */
  backToLog(): Promise<void>
  /**
   * Edit and continue: applies `request` to the open session and runs the rest as a fork with
   * the current code, to the end or the first breakpoint that hits. Resolves with an error
   * message (nothing changed) when the edit does not fit the session or a run is in progress,
   * or when the code could not be loaded (the run slice names the problem).
   */
  editAndContinue(request: EditRequest): Promise<{ ok: true } | EditRefusal>
}

const NO_FORK: ForkState = { kind: 'fork', logged: null, fromSeq: 0, original: null, conversation: null, turn: 0, seq: 0 }

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
        ...NO_FORK,
        logged: events.slice(seq),
        conversation: forkedFrom(conversations, selected),
        turn: decide.step + 1,
        seq,
      })
      deps.parseLab.getState().setView('diff')
      const ok = await deps.runner.runFrom(history)
      if (!ok) clearFork()
      return ok
    },
    clearFork,
    async editAndContinue(request) {
      const { events, mode, status, workspace } = deps.run.getState()
      if (status === 'running' || status === 'loading') return editRefusal('editWhileRunning')
      const planned = planEdit(events, request)
      if (!planned.ok) return planned
      const { plan } = planned
      const { selected, conversations } = deps.replay.getState()
      store.setState({
        kind: 'edit',
        logged: events.slice(plan.turnSeq),
        fromSeq: plan.turnSeq,
        original: mode === 'live' ? { events, workspace } : null,
        conversation: mode === 'replay' ? forkedFrom(conversations, selected) : null,
        turn: plan.turn,
        seq: request.seq,
      })
      const ok = await deps.runner.continueAfterEdit(events.slice(0, plan.keep), plan.edit, mode === 'replay')
      if (!ok) {
        clearFork()
        return editRefusal('editCodeFailed')
      }
      return { ok: true }
    },
    async backToLog() {
      const { conversation, seq, original } = store.getState()
      clearFork()
      if (original) {
        deps.runner.showLog(original.events, 'live', original.workspace, seq)
        return
      }
      if (!conversation) return
      await deps.imports.openConversation(conversation.index)
      deps.run.getState().setCursor(seq)
    },
  }
}

/** The replayed conversation a fork came from: its index and its label (English, and the phrase the UI translates when there is one). */
export interface ForkedFrom {
  index: number
  label: string
  labelPhrase?: ConversationSummary['labelPhrase']
}

/** The open conversation `selected` of `conversations` as {@link ForkedFrom}; null when none is open. */
function forkedFrom(conversations: readonly ConversationSummary[], selected: number): ForkedFrom | null {
  const summary = conversations[selected]
  if (selected < 0 || !summary) return null
  return { index: selected, label: summary.label, ...(summary.labelPhrase ? { labelPhrase: summary.labelPhrase } : {}) }
}
