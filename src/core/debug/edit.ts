/**
 * Edit and continue: the user changes what the model said at a decide, or what a tool returned
 * at an execute, and the run goes on from there as a fork. This module plans the fork — which
 * events of the log are kept and the `edit.applied` event that follows them. Pure; never throws.
 */
import type { NewSessionEvent, SessionEvent } from '../loop/events'
import type { PhraseRef } from '../util/phrase'
import { debugRef, type DebugTextKey } from './debug-text'

/** A refused edit: the English error and the same as a phrase of `DEBUG_TEXT`. */
export interface EditRefusal {
  ok: false
  error: string
  errorPhrase: PhraseRef
}

/** The refusal saying `key` of `DEBUG_TEXT`. */
export function editRefusal(key: DebugTextKey, params?: Record<string, string | number>): EditRefusal {
  const errorPhrase = debugRef(key, params)
  return { ok: false, error: errorPhrase.english, errorPhrase }
}

/** What the user edits. */
export type EditRequest =
  /** The raw output of the decide `events[seq]` (a `model.responded`); it is parsed again by the session's wire format. */
  | { target: 'model_output'; seq: number; edited: string }
  /**
   * The result of the call finished at `events[seq]` (a `tool.finished`); it is backfilled as
   * the tool's result, or as its error when `isError`.
   */
  | { target: 'tool_result'; seq: number; edited: string; isError?: boolean }

/** The `edit.applied` event before the log numbers it. */
export type EditEvent = Extract<NewSessionEvent, { type: 'edit.applied' }>

/** A planned fork: keep `events.slice(0, keep)`, then append `edit`. */
export interface EditPlan {
  /** Number of leading events of the log the fork keeps unchanged. */
  keep: number
  edit: EditEvent
  /** `seq` of the decide of the edited turn (where the fork starts to differ, for the diff). */
  turnSeq: number
  /** The edited turn, 1-based. */
  turn: number
}

/**
 * Plans the fork for `request` on `events`. A model output edit keeps the log up to and
 * including that decide; a tool result edit keeps it to the end of that execute phase (the other
 * results of the turn are kept as they were). Returns an error naming the problem when
 * `events[seq]` is not an event of that kind, when the edit changes nothing, or when the turn
 * was the tools-disabled last turn (its calls are never run).
 */
export function planEdit(events: readonly SessionEvent[], request: EditRequest): { ok: true; plan: EditPlan } | EditRefusal {
  const event = events[request.seq]
  if (!event) return editRefusal('editNoEvent', { seq: request.seq })
  const turnSeq = decideOf(events, request.seq)
  const decide = events[turnSeq]
  const turn = decide?.type === 'model.responded' ? decide.step + 1 : 0
  if (request.target === 'model_output') {
    if (event.type !== 'model.responded') return editRefusal('editNotOutput', { seq: request.seq, type: event.type })
    // Edited again: compared with the current text, but `original` stays what the model said.
    if (request.edited === (editedText(events, request.seq) ?? event.raw)) return editRefusal('editUnchanged')
    return { ok: true, plan: { keep: request.seq + 1, turnSeq: request.seq, turn: event.step + 1, edit: { type: 'edit.applied', target: 'model_output', editedSeq: request.seq, original: event.raw, edited: request.edited } } }
  }
  if (event.type !== 'tool.finished' || event.parentCallId !== undefined) return editRefusal('editNotResult', { seq: request.seq })
  const isError = request.isError === true
  const originalError = event.error !== undefined
  const original = event.error ?? event.result ?? ''
  if (request.edited === original && isError === originalError) return editRefusal('editUnchanged')
  let keep = request.seq + 1
  // The other outcomes of this execute phase are kept; a later edit of this turn's results too.
  while (keep < events.length && (events[keep]!.type === 'tool.finished' || (events[keep]!.type === 'edit.applied' && (events[keep] as EditEvent).target === 'tool_result'))) keep++
  return {
    ok: true,
    plan: {
      keep,
      turnSeq,
      turn,
      edit: {
        type: 'edit.applied',
        target: 'tool_result',
        editedSeq: request.seq,
        callId: event.callId,
        name: event.name,
        original,
        ...(originalError ? { originalError: true } : {}),
        edited: request.edited,
        ...(isError ? { isError: true } : {}),
      },
    },
  }
}

/** The `seq` of the decide that opened the turn holding `events[seq]`; 0 when there is none. */
function decideOf(events: readonly SessionEvent[], seq: number): number {
  for (let i = seq; i >= 0; i--) if (events[i]!.type === 'model.responded' || events[i]!.type === 'model.failed') return i
  return 0
}

/** The output of the decide at `seq` as a later edit left it, or `undefined` when it was not edited. */
function editedText(events: readonly SessionEvent[], seq: number): string | undefined {
  const next = events[seq + 1]
  return next?.type === 'edit.applied' && next.target === 'model_output' && next.editedSeq === seq ? next.edited : undefined
}

/**
 * The edits of a log by the `seq` of the event each one edited (the last edit of each wins),
 * for showing original and edited side by side. Linear.
 */
export function editsBySeq(events: readonly SessionEvent[]): Map<number, Extract<SessionEvent, { type: 'edit.applied' }>> {
  const edits = new Map<number, Extract<SessionEvent, { type: 'edit.applied' }>>()
  for (const event of events) if (event.type === 'edit.applied') edits.set(event.editedSeq, event)
  return edits
}
