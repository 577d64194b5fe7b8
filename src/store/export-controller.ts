/**
 * Export of the open session (a replayed conversation or a live run) as provider request
 * bodies: OpenAI Chat Completions `{messages, tools}`, Anthropic Messages
 * `{system, messages, tools}` and Ollama `/api/chat` `{messages, tools}`. The messages are the fold of the whole event log, so a replay
 * exports the logged conversation and a live run the conversation as the loop built it.
 */
import { fold, type SessionEvent } from '../core/loop'
import { exportRequest, requestExport, type ExportTarget } from '../core/export-request'
import type { Phrase } from '../core/util'
import type { ReplayState } from './replay-store'
import type { RunState } from './run-store'

export type { ExportTarget } from '../core/export-request'

/** A file to save: its suggested name and its JSON text. */
export interface ExportFile {
  fileName: string
  text: string
  /** What the file differs in from the session, to tell the user (a phrase of core's trace text, e.g. renamed call ids). */
  warning?: Phrase
}

/**
 * The request body for `target` built from `events`. Pure.
 * Tools are included in the target's own shape when the session offered any.
 */
export function exportEvents(events: readonly SessionEvent[], target: ExportTarget): ReturnType<typeof exportRequest> {
  const state = fold(events)
  return exportRequest(target, state.conversation.toArray(), state.tools)
}

/** The open session (`run`, and `replay` for its name) as a file for `target`, or `null` when nothing is open. Pure. */
export function exportOpenSession(run: Pick<RunState, 'events' | 'mode'>, replay: Pick<ReplayState, 'conversations' | 'selected'>, target: ExportTarget): ExportFile | null {
  const { events, mode } = run
  if (events.length === 0) return null
  const { conversations, selected } = replay
  const conversation = mode === 'replay' ? conversations[selected] : undefined
  const base = conversation ? `conversation-${conversation.id}` : mode === 'replay' ? 'replay' : 'toolstep-run'
  const safe = base.replace(/[^\w.-]+/g, '-').slice(0, 80)
  const state = fold(events)
  const { body, warning } = requestExport(target, state.conversation.toArray(), state.tools)
  return { fileName: `${safe}.${target}.json`, text: `${JSON.stringify(body, null, 2)}\n`, ...(warning ? { warning } : {}) }
}
