/**
 * Narration: one plain-words sentence for a session event, as a translation key and its
 * parameters. Core stays free of UI and language: the UI looks the key up under `narration.` in
 * its resources (en, zh-CN, zh-TW) and fills in the parameters.
 */
import type { PhraseShape, SessionEvent, StopReason } from '../loop/events'

/**
 * A detail core phrased (a validation problem, a parse error) as a parameter: the phrase of core's
 * catalogue `ns` (`core.<ns>.` in the UI's resources), and its English, shortened, for a UI
 * without that key.
 */
export interface NarrationPhrase {
  ns: string
  phrase: PhraseShape
  english: string
}

/**
 * Parameters of a narration sentence; numbers, short strings, and phrased details. `count` picks
 * the sentence's singular or plural form (`key_one` / `key_other`, i18next's rule), so a sentence
 * whose number has another name (`chars`, `messages`) gives it as `count` too.
 */
export type NarrationParams = Record<string, string | number | NarrationPhrase>

/** A sentence to say: the key under `narration.` and its parameters. */
export interface Narration {
  key: string
  params: NarrationParams
}

/** Every key {@link narrate} can return (the resource test checks each exists in every language). */
export const NARRATION_KEYS = [
  'startLive', 'startReplay',
  'decide', 'decideFinalTurn', 'modelFailed',
  'parseNone', 'parseOne', 'parseManyParallel', 'parseManySequential', 'parseErrors', 'parseFallback',
  'validateOk', 'validateCoerced', 'validateProblems', 'validateRepeated', 'validateConfirm',
  'confirmRequested', 'confirmDecided',
  'toolOk', 'toolError', 'toolTimedOut', 'toolDeclined', 'toolTruncated', 'toolInjection',
  'backfillOne', 'backfillMany', 'backfillCorrection', 'backfillAssistant',
  'editOutput', 'editResult',
  'stop.final_answer', 'stop.max_steps', 'stop.maxStepsFinalTurn', 'stop.repeated_call', 'stop.aborted', 'stop.error',
] as const
export type NarrationKey = (typeof NARRATION_KEYS)[number]

const MAX_PARAM_CHARS = 120

/** Cuts a parameter to {@link MAX_PARAM_CHARS} chars so a sentence stays a sentence. */
/** Call names said in full up to this many; the sentence gives the count, so more end in "…". */
export const NARRATED_CALL_NAMES = 5

/** The first {@link NARRATED_CALL_NAMES} call names, comma-separated, then "…" (a turn can hold 100 000 calls). */
function listedNames(calls: readonly { name: string }[]): string {
  const listed = calls.slice(0, NARRATED_CALL_NAMES).map((call) => call.name).join(', ')
  return calls.length > NARRATED_CALL_NAMES ? `${listed}, …` : listed
}

function short(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return oneLine.length > MAX_PARAM_CHARS ? `${oneLine.slice(0, MAX_PARAM_CHARS - 1)}…` : oneLine
}

/** `english`, shortened, or its phrase of catalogue `ns` when core gave one (the UI shortens the translation). */
function phrased(ns: string, english: string, phrase: PhraseShape | undefined): string | NarrationPhrase {
  return phrase ? { ns, phrase, english: short(english) } : short(english)
}

/**
 * A tool error in words: a call that was not run because it failed validation says its first
 * problem as the validate phase phrased it (translated), else the error as written back.
 */
function toolErrorDetail(events: readonly SessionEvent[], index: number, event: Extract<SessionEvent, { type: 'tool.finished' }>): string | NarrationPhrase {
  const english = event.error ?? ''
  // The turn's validate event is a few events back (one per call of the turn at most).
  for (let i = index - 1; i >= 0; i--) {
    const before = events[i]!
    if (before.type === 'model.responded' || before.type === 'model.failed') break
    if (before.type !== 'validate.completed') continue
    const verdict = before.verdicts.find((v) => v.callId === event.callId)
    const problem = verdict && !verdict.ok ? verdict.phrases?.problems[0] : undefined
    if (verdict && problem && english.includes(verdict.problems[0] ?? '\u0000')) return phrased('validation', verdict.problems[0] ?? english, problem)
    break
  }
  return short(english)
}

function say(key: NarrationKey, params: NarrationParams = {}): Narration {
  return { key, params }
}

/**
 * Why the loop stopped. The step cap and a repeated call are said from the events themselves (the
 * cap, the repeated tool and count), so every language can say them; an error keeps its detail.
 */
function stopNarration(events: readonly SessionEvent[], index: number, reason: StopReason, detail: string | undefined, phrase: PhraseShape | undefined): Narration {
  const before = events.slice(0, index)
  if (reason === 'max_steps') {
    const started = before.find((e) => e.type === 'session.started')
    const maxSteps = started?.type === 'session.started' ? started.maxSteps : 0
    return say(before.some((e) => e.type === 'model.responded' && e.finalTurn === true) ? 'stop.maxStepsFinalTurn' : 'stop.max_steps', { maxSteps, count: maxSteps })
  }
  if (reason === 'repeated_call') {
    const repeated = before.findLast((e) => e.type === 'validate.completed' && e.repeated !== undefined)
    const found = repeated?.type === 'validate.completed' ? repeated.repeated : undefined
    // The machine stops with repeated_call only after a validate event flagged the repetition.
    return say('stop.repeated_call', { name: found?.name ?? '?', count: found?.count ?? 0 })
  }
  return say(`stop.${reason}`, { detail: phrased('loop', detail ?? '', phrase) })
}

/**
 * The sentence for `events[index]`, read in the context of the events before it (the session's
 * wire format and settings, the calls of the turn). `undefined` when `index` is out of range.
 * Never throws; linear in `index` at worst.
 */
export function narrate(events: readonly SessionEvent[], index: number): Narration | undefined {
  const event = events[index]
  if (!event) return undefined
  const session = events.find((e): e is Extract<SessionEvent, { type: 'session.started' }> => e.type === 'session.started')
  switch (event.type) {
    case 'session.started':
      return event.source === 'replay'
        ? say('startReplay', { messages: event.messages.length, count: event.messages.length })
        : say('startLive', { tools: event.tools.length, count: event.tools.length, protocol: event.protocol, maxSteps: event.maxSteps })
    case 'model.responded':
      return event.finalTurn ? say('decideFinalTurn') : say('decide', { step: event.step + 1, chars: event.raw.length, count: event.raw.length }) // event.step is 0-based
    case 'model.failed':
      return say('modelFailed', { error: short(event.error) })
    case 'parse.completed': {
      if (event.errors.length > 0) return say('parseErrors', { count: event.errors.length, error: phrased('parse', event.errors[0]?.message ?? '', event.errors[0]?.phrase) })
      const names = listedNames(event.calls)
      if (session && event.calls.length > 0 && event.protocol !== session.protocol && session.protocol !== 'auto')
        return say('parseFallback', { protocol: event.protocol, count: event.calls.length, names })
      if (event.calls.length === 0) return say('parseNone')
      if (event.calls.length === 1) return say('parseOne', { name: event.calls[0]?.name ?? '' })
      const sequential = session?.settings?.execution === 'sequential'
      return say(sequential ? 'parseManySequential' : 'parseManyParallel', { count: event.calls.length, names })
    }
    case 'validate.completed': {
      if (event.repeated) return say('validateRepeated', { name: event.repeated.name, count: event.repeated.count })
      const failed = event.verdicts.filter((v) => !v.ok)
      if (failed.length > 0)
        return say('validateProblems', { failed: failed.length, count: event.verdicts.length, name: failed[0]?.name ?? '', problem: phrased('validation', failed[0]?.problems[0] ?? '', failed[0]?.phrases?.problems[0]) })
      if (event.verdicts.some((v) => v.confirm)) return say('validateConfirm')
      const coerced = event.verdicts.reduce((n, v) => n + (v.coercions?.length ?? 0), 0)
      if (coerced > 0) return say('validateCoerced', { count: event.verdicts.length, coerced })
      return say('validateOk', { count: event.verdicts.length })
    }
    case 'confirm.requested':
      return say('confirmRequested', { count: event.callIds.length })
    case 'confirm.decided': {
      const count = (d: string) => event.decisions.filter((x) => x.decision === d).length
      return say('confirmDecided', { approved: count('approve'), denied: count('deny'), edited: count('edit') })
    }
    case 'tool.finished': {
      const ms = Math.round(event.durationMs)
      if (event.declined) return say('toolDeclined', { name: event.name })
      if (event.timedOut) return say('toolTimedOut', { name: event.name, ms })
      if (event.error !== undefined) return say('toolError', { name: event.name, error: toolErrorDetail(events, index, event) })
      if (event.injection && event.injection.length > 0) return say('toolInjection', { name: event.name, text: short(event.injection[0]?.text ?? '') })
      if (event.truncated) return say('toolTruncated', { name: event.name, chars: event.originalChars ?? event.result?.length ?? 0 })
      return say('toolOk', { name: event.name, ms, chars: event.result?.length ?? 0, count: event.result?.length ?? 0 })
    }
    case 'backfill.completed': {
      const tools = event.messages.filter((m) => m.role === 'tool').length
      if (event.messages.some((m) => m.role === 'user')) return say('backfillCorrection')
      if (tools > 1) return say('backfillMany', { count: tools })
      if (tools === 1) return say('backfillOne')
      return say('backfillAssistant')
    }
    case 'edit.applied':
      return event.target === 'model_output' ? say('editOutput', { chars: event.edited.length, count: event.edited.length }) : say('editResult', { name: event.name ?? event.callId ?? '' })
    case 'loop.stopped':
      return stopNarration(events, index, event.reason, event.detail, event.phrase)
  }
}
