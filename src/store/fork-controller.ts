/**
 * What-if: fork a replayed conversation at an assistant turn and continue it live with the
 * current tools and mock model. Tool results before the fork come from the log (they are part
 * of the history), nothing before it is re-executed. The logged tail is kept for the diff view.
 */
import { create } from 'zustand'
import type { SessionEvent } from '../core/loop/events'
import { fold } from '../core/loop/machine'
import { useParseLab } from './parse-lab-store'
import { runFrom } from './run-controller'
import { useReplay } from './replay-store'
import { useRun } from './run-store'
import { openConversation } from './import-controller'

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

export const useFork = create<ForkState>()(() => ({ logged: null, conversation: null, turn: 0, seq: 0 }))

/**
 * Forks the open replay at the decide `events[seq]` (a `model.responded` event): the model is
 * asked again from the messages before it. Resolves false when the code could not be loaded.
 */
export async function forkAt(seq: number): Promise<boolean> {
  const { events, mode } = useRun.getState()
  const decide = events[seq]
  if (mode !== 'replay' || decide?.type !== 'model.responded') return false
  const history = fold(events.slice(0, seq)).messages
  const { selected, conversations } = useReplay.getState()
  useFork.setState({
    logged: events.slice(seq),
    conversation: selected >= 0 ? { index: selected, label: conversations[selected]?.label ?? `Conversation ${selected + 1}` } : null,
    turn: decide.step + 1,
    seq,
  })
  useParseLab.getState().setView('diff')
  const ok = await runFrom(history)
  if (!ok) clearFork()
  return ok
}

/** Forgets the fork (the diff view closes). */
export function clearFork(): void {
  useFork.setState({ logged: null, conversation: null, turn: 0, seq: 0 })
}

/** Leaves the fork and reopens the logged conversation at the turn that was forked. */
export async function backToLog(): Promise<void> {
  const { conversation, seq } = useFork.getState()
  clearFork()
  if (!conversation) return
  await openConversation(conversation.index)
  useRun.getState().setCursor(seq)
}
