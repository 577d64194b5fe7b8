/**
 * One-line summaries of session events for the timeline. Pure, so the same words
 * appear in the app and in tests.
 */
import { PHASE_OF, type Phase, type SessionEvent } from '../events'

export type Tone = 'normal' | 'ok' | 'warn' | 'error'

/** Repairs that are normal for text formats (shown, but not as a warning). */
export const INFORMATIONAL_REPAIRS: ReadonlySet<string> = new Set(['fence_stripped', 'prose_ignored'])

export interface EventSummary {
  phase: Phase
  title: string
  detail: string
  tone: Tone
}

export function describeEvent(event: SessionEvent): EventSummary {
  const phase = PHASE_OF[event.type]
  switch (event.type) {
    case 'session.started':
      return { phase, title: 'Start', detail: `${event.source === 'replay' ? 'replay · ' : ''}${event.tools.length} tool${event.tools.length === 1 ? '' : 's'} · ${event.protocol}`, tone: 'normal' }
    case 'model.responded':
      return {
        phase,
        title: `Decide · turn ${event.step + 1}${event.finalTurn ? ' (tools disabled)' : ''}`,
        detail: [`${event.raw.length} chars`, event.firstTokenMs !== undefined ? `TTFT ${fmtMs(event.firstTokenMs)}` : '', event.durationMs ? `${event.chunks ? 'total ' : ''}${fmtMs(event.durationMs)}` : '', event.chunks ? `${event.chunks.length} chunks` : '', event.offeredTools ? `${event.offeredTools.length} tools offered` : '', event.window ? `window ${event.window.to - event.window.from} msgs` : ''].filter(Boolean).join(' · '),
        tone: 'normal',
      }
    case 'model.failed':
      return { phase, title: `Decide · turn ${event.step + 1}`, detail: `model failed: ${event.error}`, tone: 'error' }
    case 'parse.completed': {
      const n = event.calls.length
      const what = n === 0 ? (event.errors.length ? 'malformed call' : 'no call: answer') : `${n} call${n === 1 ? '' : 's'}: ${event.calls.map((c) => c.name).join(', ')}`
      const repairs = event.repairs.length ? ` · ${event.repairs.length} repair${event.repairs.length === 1 ? '' : 's'}` : ''
      // Fences and prose around a call are part of text formats, not damage worth a warning.
      const damaged = event.repairs.some((r) => !INFORMATIONAL_REPAIRS.has(r.code))
      // Which format matched, when a fallback chain or auto-detection chose it.
      const via = event.detection?.startsWith('Fallback chain') ? ` · via ${event.protocol}` : ''
      return { phase, title: 'Parse', detail: what + via + repairs, tone: event.errors.length ? 'error' : damaged ? 'warn' : 'normal' }
    }
    case 'validate.completed': {
      const bad = event.verdicts.filter((v) => !v.ok).length
      const changed = event.verdicts.filter((v) => v.coercions?.length || v.warnings?.length || (v.resolution && v.resolution !== 'exact')).length
      const notes = [changed ? `${changed} adjusted` : '', event.warnings?.length ? event.warnings.map((w) => w.code).join(', ') : ''].filter(Boolean).join(' · ')
      const detail = (bad ? `${bad} of ${event.verdicts.length} invalid` : `${event.verdicts.length} valid`) + (notes ? ` · ${notes}` : '')
      return { phase, title: 'Validate', detail, tone: bad ? 'error' : notes ? 'warn' : 'ok' }
    }
    case 'confirm.requested':
      return { phase, title: 'Confirm', detail: `waiting for approval of ${event.callIds.length} call${event.callIds.length === 1 ? '' : 's'}`, tone: 'warn' }
    case 'confirm.decided': {
      const denied = event.decisions.filter((d) => d.decision === 'deny').length
      const word = { approve: 'approved', deny: 'denied', edit: 'edited' } as const
      return { phase, title: 'Confirm', detail: event.decisions.map((d) => word[d.decision]).join(', '), tone: denied ? 'warn' : 'ok' }
    }
    case 'tool.finished': {
      const status = event.declined ? 'declined' : event.timedOut ? 'timed out' : event.error !== undefined ? 'error' : event.truncated ? 'ok · truncated' : event.summarized ? 'ok · summarised' : 'ok'
      const extra = [event.fault ? `fault: ${event.fault}` : '', event.attempts && event.attempts > 1 ? `${event.attempts} attempts` : '', event.injection?.length ? 'injection flagged' : ''].filter(Boolean)
      const title = event.parentCallId ? `↳ ${event.name} (from code)` : `Execute · ${event.name}`
      const tone: Tone = event.error !== undefined ? 'error' : event.declined || event.injection?.length || event.truncated ? 'warn' : 'ok'
      return { phase, title, detail: [status, event.durationMs ? fmtMs(event.durationMs) : '', ...extra].filter(Boolean).join(' · '), tone }
    }
    case 'backfill.completed':
      return { phase, title: 'Backfill', detail: `+${event.messages.length} message${event.messages.length === 1 ? '' : 's'}`, tone: 'normal' }
    case 'edit.applied': {
      const what = event.target === 'model_output' ? 'model output' : `result of ${event.name ?? event.callId ?? 'a call'}`
      return { phase, title: `Edit · ${what}`, detail: `was ${clip(event.original)} → now ${event.isError ? 'error: ' : ''}${clip(event.edited)}`, tone: 'warn' }
    }
    case 'loop.stopped':
      return { phase, title: 'Stop', detail: event.reason, tone: event.reason === 'final_answer' ? 'ok' : 'error' }
  }
}

/** One line of at most 60 chars, for a timeline detail. */
function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 60 ? `${line.slice(0, 59)}…` : line || '(empty)'
}

/** Milliseconds for display: `850 ms`, `1.2 s`. */
export function fmtMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}
