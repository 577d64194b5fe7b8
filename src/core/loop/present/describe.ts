/**
 * One-line summaries of session events for the timeline. Pure, so the same words appear in the
 * app and in tests. {@link summarizeEvent} gives the summary as phrases (keys of
 * {@link EVENT_TEXT} with parameters) for the UI to translate; {@link describeEvent} renders
 * them in English for the CLI.
 */
import { phrase, renderPhrase, type CatalogueKey, type Phrase, type PhraseRef } from '../../util/phrase'
import { LOOP_TEXT } from '../loop-text'
import { PHASE_OF, type Phase, type SessionEvent } from '../events'

export type Tone = 'normal' | 'ok' | 'warn' | 'error'

/** Repairs that are normal for text formats (shown, but not as a warning). */
export const INFORMATIONAL_REPAIRS: ReadonlySet<string> = new Set(['fence_stripped', 'prose_ignored'])

/**
 * The English text of every timeline phrase (i18next syntax: `{{param}}`, `_one`/`_other` by
 * `count`). The UI's English for `core.event.<key>` is this table; other languages translate it.
 */
export const EVENT_TEXT = {
  start: 'Start',
  decide: 'Decide · turn {{turn}}',
  decideFinalTurn: 'Decide · turn {{turn}} (tools disabled)',
  parse: 'Parse',
  validate: 'Validate',
  confirm: 'Confirm',
  execute: 'Execute · {{name}}',
  executeFromCode: '↳ {{name}} (from code)',
  backfill: 'Backfill',
  stop: 'Stop',
  /** An identifier, a time or a code list, shown as is in every language. */
  verbatim: '{{text}}',
  replay: 'replay',
  tools_one: '{{count}} tool',
  tools_other: '{{count}} tools',
  chars_one: '{{count}} char',
  chars_other: '{{count}} chars',
  ttft: 'TTFT {{time}}',
  total: 'total {{time}}',
  chunks_one: '{{count}} chunk',
  chunks_other: '{{count}} chunks',
  toolsOffered_one: '{{count}} tool offered',
  toolsOffered_other: '{{count}} tools offered',
  window_one: 'window {{count}} msg',
  window_other: 'window {{count}} msgs',
  modelFailed: 'model failed: {{error}}',
  malformedCall: 'malformed call',
  noCallAnswer: 'no call: answer',
  calls_one: '{{count}} call: {{names}}',
  calls_other: '{{count}} calls: {{names}}',
  /** The first names of a long list of calls, and how many more there are. */
  namesAndMore: '{{names}} … and {{count}} more',
  via: 'via {{protocol}}',
  repairs_one: '{{count}} repair',
  repairs_other: '{{count}} repairs',
  invalid: '{{bad}} of {{count}} invalid',
  valid: '{{count}} valid',
  adjusted: '{{count}} adjusted',
  awaiting_one: 'waiting for approval of {{count}} call',
  awaiting_other: 'waiting for approval of {{count}} calls',
  approved: 'approved',
  denied: 'denied',
  edited: 'edited',
  declined: 'declined',
  timedOut: 'timed out',
  timedOutAfter: 'timed out after {{duration}} (limit {{limit}} ms)',
  error: 'error',
  ok: 'ok',
  okTruncated: 'ok · truncated',
  okSummarised: 'ok · summarised',
  fault: 'fault: {{fault}}',
  attempts: '{{count}} attempts',
  injectionFlagged: 'injection flagged',
  editOutput: 'Edit · model output',
  editResult: 'Edit · result of {{name}}',
  editResultOfCall: 'Edit · result of a call',
  editedValue: 'was {{was}} → now {{now}}',
  editedValueToError: 'was {{was}} → now error: {{now}}',
  messages_one: '+{{count}} message',
  messages_other: '+{{count}} messages',
} as const satisfies Record<string, string>

/** A key of {@link EVENT_TEXT} without its plural suffix. */
export type EventTextKey = CatalogueKey<typeof EVENT_TEXT>

/** A timeline row as phrases: the title, and the detail's parts joined by `separator`. */
export interface EventSummaryText {
  phase: Phase
  title: Phrase
  detail: Phrase[]
  /** Between the detail's parts: ` · ` (or `, ` for a list of confirmation decisions). */
  separator: string
  tone: Tone
}

/** A timeline row in English. */
export interface EventSummary {
  phase: Phase
  title: string
  detail: string
  tone: Tone
}

const say = (key: EventTextKey, params?: Record<string, string | number | Phrase | PhraseRef>): Phrase => phrase(key, params)

/** Distinct call names listed up to this many; more show the first ones and a count of the other calls. */
export const LISTED_CALL_NAMES = 5

/**
 * The names of a turn's calls for its row, each once in first-call order with `×k` when it was
 * called k > 1 times ("get_weather ×3, packing_list"): a row stays short enough to read whole at a
 * big text size. Past {@link LISTED_CALL_NAMES} distinct names, "… and N more" counts the other
 * calls (a model can return 100 000 calls in one turn). Linear in the number of calls.
 */
function callNames(calls: readonly { name: string }[]): string | Phrase {
  // Remembered per list: the timeline draws the same turn's row again on every run update.
  let named = namesOf.get(calls)
  if (named === undefined) namesOf.set(calls, (named = countNames(calls)))
  return named
}
const namesOf = new WeakMap<readonly { name: string }[], string | Phrase>()

function countNames(calls: readonly { name: string }[]): string | Phrase {
  const counts = new Map<string, number>()
  for (const call of calls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1)
  const listed = [...counts].slice(0, LISTED_CALL_NAMES)
  const names = listed.map(([name, count]) => (count > 1 ? `${name} ×${count}` : name)).join(', ')
  const rest = calls.length - listed.reduce((sum, [, count]) => sum + count, 0)
  return rest === 0 ? names : say('namesAndMore', { names, count: rest })
}
const verbatim = (text: string): Phrase => say('verbatim', { text })

/** The timeline row of `event` as phrases (keys of {@link EVENT_TEXT}). Pure; never throws. */
export function summarizeEvent(event: SessionEvent): EventSummaryText {
  const phase = PHASE_OF[event.type]
  const row = (title: Phrase, detail: (Phrase | false | undefined)[], tone: Tone, separator = ' · '): EventSummaryText => ({
    phase,
    title,
    detail: detail.filter((part): part is Phrase => part !== false && part !== undefined),
    separator,
    tone,
  })
  switch (event.type) {
    case 'session.started':
      return row(say('start'), [event.source === 'replay' && say('replay'), say('tools', { count: event.tools.length }), verbatim(event.protocol)], 'normal')
    case 'model.responded':
      return row(
        say(event.finalTurn ? 'decideFinalTurn' : 'decide', { turn: event.step + 1 }),
        [
          say('chars', { count: event.raw.length }),
          event.firstTokenMs !== undefined && say('ttft', { time: fmtMs(event.firstTokenMs) }),
          !!event.durationMs && (event.chunks ? say('total', { time: fmtMs(event.durationMs) }) : verbatim(fmtMs(event.durationMs))),
          !!event.chunks && say('chunks', { count: event.chunks.length }),
          !!event.offeredTools && say('toolsOffered', { count: event.offeredTools.length }),
          !!event.window && say('window', { count: event.window.to - event.window.from }),
        ],
        'normal',
      )
    case 'model.failed':
      return row(say('decide', { turn: event.step + 1 }), [say('modelFailed', { error: failure(event) })], 'error')
    case 'parse.completed': {
      const n = event.calls.length
      const what = n === 0 ? say(event.errors.length ? 'malformedCall' : 'noCallAnswer') : say('calls', { count: n, names: callNames(event.calls) })
      // Fences and prose around a call are part of text formats, not damage worth a warning.
      const damaged = event.repairs.some((r) => !INFORMATIONAL_REPAIRS.has(r.code))
      // Which format matched, when a fallback chain or auto-detection chose it.
      const via = event.detection?.startsWith('Fallback chain') && say('via', { protocol: event.protocol })
      return row(say('parse'), [what, via, event.repairs.length > 0 && say('repairs', { count: event.repairs.length })], event.errors.length ? 'error' : damaged ? 'warn' : 'normal')
    }
    case 'validate.completed': {
      const bad = event.verdicts.filter((v) => !v.ok).length
      const changed = event.verdicts.filter((v) => v.coercions?.length || v.warnings?.length || (v.resolution && v.resolution !== 'exact')).length
      const warnings = event.warnings?.length ? verbatim(event.warnings.map((w) => w.code).join(', ')) : undefined
      const main = bad ? say('invalid', { bad, count: event.verdicts.length }) : say('valid', { count: event.verdicts.length })
      return row(say('validate'), [main, changed > 0 && say('adjusted', { count: changed }), warnings], bad ? 'error' : changed || warnings ? 'warn' : 'ok')
    }
    case 'confirm.requested':
      return row(say('confirm'), [say('awaiting', { count: event.callIds.length })], 'warn')
    case 'confirm.decided': {
      const denied = event.decisions.filter((d) => d.decision === 'deny').length
      const word = { approve: 'approved', deny: 'denied', edit: 'edited' } as const
      return row(say('confirm'), event.decisions.map((d) => say(word[d.decision])), denied ? 'warn' : 'ok', ', ')
    }
    case 'tool.finished': {
      // A timeout with its limit says the duration itself, as the call's result does.
      const limited = event.timedOut && event.timeoutMs !== undefined
      const status = limited
        ? say('timedOutAfter', { duration: fmtMs(event.durationMs), limit: event.timeoutMs! })
        : say(event.declined ? 'declined' : event.timedOut ? 'timedOut' : event.error !== undefined ? 'error' : event.truncated ? 'okTruncated' : event.summarized ? 'okSummarised' : 'ok')
      const title = event.parentCallId ? say('executeFromCode', { name: event.name }) : say('execute', { name: event.name })
      const tone: Tone = event.error !== undefined ? 'error' : event.declined || event.injection?.length || event.truncated ? 'warn' : 'ok'
      return row(
        title,
        [
          status,
          !limited && !!event.durationMs && verbatim(fmtMs(event.durationMs)),
          !!event.fault && say('fault', { fault: event.fault }),
          !!event.attempts && event.attempts > 1 && say('attempts', { count: event.attempts }),
          !!event.injection?.length && say('injectionFlagged'),
        ],
        tone,
      )
    }
    case 'backfill.completed':
      return row(say('backfill'), [say('messages', { count: event.messages.length })], 'normal')
    case 'edit.applied': {
      const name = event.name ?? event.callId
      const title = event.target === 'model_output' ? say('editOutput') : name !== undefined ? say('editResult', { name }) : say('editResultOfCall')
      return row(title, [say(event.isError ? 'editedValueToError' : 'editedValue', { was: clip(event.original), now: clip(event.edited) })], 'warn')
    }
    case 'loop.stopped':
      return row(say('stop'), [verbatim(event.reason), stopDetail(event)], event.reason === 'final_answer' ? 'ok' : 'error')
  }
}

/**
 * Why the loop stopped, on the stop's own row ("the log has no assistant turn" says more than
 * `error`): the stop's phrase of {@link LOOP_TEXT} (translated by the UI under `core.loop`, the
 * event's English `detail` in the CLI), the `detail` as it is when it came from elsewhere.
 */
function stopDetail(event: Extract<SessionEvent, { type: 'loop.stopped' }>): Phrase | undefined {
  if (event.phrase) {
    const english = event.detail ?? renderPhrase(event.phrase, LOOP_TEXT)
    const text: PhraseRef = { ns: 'loop', key: event.phrase.key, ...(event.phrase.params ? { params: event.phrase.params } : {}), english }
    return say('verbatim', { text })
  }
  return event.detail ? verbatim(event.detail) : undefined
}

/** A model failure's error: its phrase of another catalogue (the sandbox's own words) when it has one, with the English beside it. */
function failure(event: Extract<SessionEvent, { type: 'model.failed' }>): string | PhraseRef {
  const said = event.errorPhrase
  if (!said?.ns) return event.error
  return { ns: said.ns, key: said.key, ...(said.params ? { params: said.params } : {}), english: event.error }
}

/** One line of at most 60 chars, for a timeline detail. */
function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 60 ? `${line.slice(0, 59)}…` : line || '(empty)'
}

/** `summary` rendered with `render` (a phrase to text): the title, and the detail joined. */
export function renderSummary(summary: EventSummaryText, render: (phrase: Phrase) => string): EventSummary {
  return { phase: summary.phase, title: render(summary.title), detail: summary.detail.map(render).join(summary.separator), tone: summary.tone }
}

/** The timeline row of `event` in English (what the CLI prints). */
export function describeEvent(event: SessionEvent): EventSummary {
  return renderSummary(summarizeEvent(event), (p) => renderPhrase(p, EVENT_TEXT))
}

/** Milliseconds for display: `850 ms`, `1.2 s`. */
export function fmtMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}
