/**
 * The reducer: `apply(state, event) → state`, the loop's memory. It accepts any event in any
 * order (a live run, a replayed log, a loaded session file) and never decides anything; the
 * decider (`decider.ts`) reads the state it produces.
 *
 * Every case is O(size of the event): a turn's tool results are kept in a persistent list
 * (shared between the states of a fold) rather than copied on each `tool.finished`, and
 * repeated-call detection keeps only the run of identical calls at the end of the history, and
 * the conversation is an append-only {@link Conversation}, so a backfill never copies it.
 */
import type { ParseResult } from '../protocols/types'
import type { ToolSpec } from '../tools/types'
import type { Decision, SessionEvent, StopReason, ValidationPolicy, Verdict } from './events'
import { Conversation } from './conversation'
import { DEFAULT_LOOP_SETTINGS, type LoopSettings } from './settings'
import { signature } from './signature'
import type { StoredPhrase } from './loop-text'

/** Parse outcome with every call carrying a `tool_call_id`. */
export type IdentifiedParse = Omit<ParseResult, 'calls'> & { calls: (ParseResult['calls'][number] & { id: string })[] }

/** A `tool.finished` event. */
export type ToolFinished = Extract<SessionEvent, { type: 'tool.finished' }>

/** The tool outcomes of a turn, newest first, as an immutable list shared between successive states. */
export type ResultList = { readonly latest: ToolFinished; readonly earlier: ResultList } | null

/** The calls at the end of the history that all had the same signature (`name` + arguments). */
export interface RepeatRun {
  signature: string
  count: number
}

/** Everything the loop knows after some prefix of the log. */
export interface LoopState {
  /** Type of the last event applied, `null` before `session.started`. */
  last: SessionEvent['type'] | null
  source: 'live' | 'replay'
  /** How calls are validated (see {@link ValidationPolicy}). */
  validationPolicy: ValidationPolicy
  protocol: string
  tools: ToolSpec[]
  maxSteps: number
  settings: LoopSettings
  /** The user's system prompt text before the generated instructions, when known (for routing). */
  systemPromptBase: string | null
  /**
   * Conversation as the model will see it at the next decide (before windowing). Immutable and
   * shared between successive states: a backfill appends in O(messages added).
   */
  conversation: Conversation
  /** Number of decide phases so far. */
  step: number
  /** Raw output of the current turn. */
  raw: string | null
  /** The provider's `finish_reason` for the current turn, when known (`length`: cut by the token limit). */
  finishReason: string | null
  /** Parse of the current turn. */
  parse: IdentifiedParse | null
  verdicts: Verdict[] | null
  /** Confirmation decisions of the current turn. */
  decisions: Decision[] | null
  /** Tool outcomes of the current turn; read them in logged order with {@link turnResults}. */
  results: ResultList
  /** Number of entries in `results`. */
  resultCount: number
  /** True once the model gave a turn that ends the loop with an answer. */
  answered: boolean
  /** Malformed outputs in a row. */
  parseFailures: number
  /** The run of identical calls at the end of the calls validated so far; `null` before the first. */
  repeatRun: RepeatRun | null
  /** The current turn is the tools-disabled turn after max steps. */
  finalTurn: boolean
  /** Set by validation when repeated-call detection stops the loop. */
  repeated: { name: string; count: number } | null
  /** Final answer text once the loop ended with one. */
  finalAnswer: string | null
  stop: { reason: StopReason; detail?: string; phrase?: StoredPhrase } | null
}

/** The state before any event. */
export const initialLoopState: LoopState = {
  last: null,
  source: 'live',
  validationPolicy: 'live',
  protocol: 'openai',
  tools: [],
  maxSteps: 8,
  settings: DEFAULT_LOOP_SETTINGS,
  systemPromptBase: null,
  conversation: Conversation.empty,
  step: 0,
  raw: null,
  finishReason: null,
  parse: null,
  verdicts: null,
  decisions: null,
  results: null,
  resultCount: 0,
  answered: false,
  parseFailures: 0,
  repeatRun: null,
  finalTurn: false,
  repeated: null,
  finalAnswer: null,
  stop: null,
}

/** The current turn's tool outcomes in the order they were logged. O(results). */
export function turnResults(state: Pick<LoopState, 'results' | 'resultCount'>): ToolFinished[] {
  const out = new Array<ToolFinished>(state.resultCount)
  let index = state.resultCount
  for (let node = state.results; node !== null; node = node.earlier) out[--index] = node.latest
  return out
}

/** The repeat run after `signatures` were validated, starting from `run`. O(signatures). */
export function extendRepeatRun(run: RepeatRun | null, signatures: readonly string[]): RepeatRun | null {
  let current = run
  for (const sig of signatures) current = current && current.signature === sig ? { signature: sig, count: current.count + 1 } : { signature: sig, count: 1 }
  return current
}

/**
 * The same run as `extendRepeatRun(run, signatures)` for `count` signatures read through
 * `signatureAt`, reading them from the end and stopping at the first that differs from the
 * last: O(length of the final run of identical calls), so a turn of 100 000 different calls
 * costs two signatures, not 100 000.
 */
export function endRepeatRun(run: RepeatRun | null, count: number, signatureAt: (index: number) => string): RepeatRun | null {
  if (count === 0) return run
  const last = signatureAt(count - 1)
  let same = 1
  while (same < count && signatureAt(count - 1 - same) === last) same++
  if (same === count && run && run.signature === last) return { signature: last, count: run.count + count }
  return { signature: last, count: same }
}

/** True once more malformed outputs came in a row than corrections are allowed. */
export function parseExhausted(state: Pick<LoopState, 'parseFailures' | 'settings'>): boolean {
  return state.parseFailures > state.settings.maxParseRetries
}

const emptyTurn = { parse: null, verdicts: null, decisions: null, results: null, resultCount: 0 } satisfies Partial<LoopState>

/** Folds one event into the state. Pure; never throws. */
export function apply(state: LoopState, event: SessionEvent): LoopState {
  // The most frequent event (one per call) first, with a single copy of the state.
  if (event.type === 'tool.finished') return { ...state, last: event.type, results: { latest: event, earlier: state.results }, resultCount: state.resultCount + 1 }
  const next: LoopState = { ...state, last: event.type }
  switch (event.type) {
    case 'session.started':
      return {
        ...initialLoopState,
        last: event.type,
        source: event.source,
        validationPolicy: event.validationPolicy ?? (event.source === 'replay' ? 'as-logged' : 'live'),
        protocol: event.protocol,
        tools: event.tools,
        maxSteps: event.maxSteps,
        settings: event.settings ?? DEFAULT_LOOP_SETTINGS,
        systemPromptBase: event.systemPromptBase ?? null,
        conversation: Conversation.of(event.messages),
      }
    case 'model.responded':
      return { ...next, ...emptyTurn, step: state.step + 1, raw: event.raw, finishReason: event.finishReason ?? null, answered: false, finalTurn: event.finalTurn === true, repeated: null }
    case 'model.failed':
      return { ...next, ...emptyTurn, step: state.step + 1, raw: null, finishReason: null }
    case 'parse.completed': {
      const failed = event.calls.length === 0 && event.errors.length > 0
      const parseFailures = failed ? state.parseFailures + 1 : 0
      const parse = { protocol: event.protocol, calls: event.calls, text: event.text, repairs: event.repairs, errors: event.errors, ...(event.detection === undefined ? {} : { detection: event.detection }) }
      const giveUpAsAnswer = failed && parseFailures > state.settings.maxParseRetries && state.settings.onParseFailure === 'final_answer'
      const answered = (event.calls.length === 0 && !failed) || giveUpAsAnswer || (state.finalTurn && !failed)
      return { ...next, parse, parseFailures, answered }
    }
    case 'validate.completed':
      return {
        ...next,
        verdicts: event.verdicts,
        repeated: event.repeated ?? null,
        repeatRun: endRepeatRun(state.repeatRun, event.verdicts.length, (i) => signature(event.verdicts[i]!.name, event.verdicts[i]!.arguments ?? {})),
      }
    case 'confirm.requested':
      return next
    case 'confirm.decided':
      return { ...next, decisions: event.decisions }
    case 'backfill.completed':
      return { ...next, conversation: state.conversation.append(event.messages) }
    case 'edit.applied':
      // The edited content replaces the original in the state; the original stays in the log.
      if (event.target === 'model_output') return { ...next, ...emptyTurn, raw: event.edited, answered: false, repeated: null }
      return { ...next, results: replaceResult(state.results, event) }
    case 'loop.stopped':
      return {
        ...next,
        stop: { reason: event.reason, ...(event.detail === undefined ? {} : { detail: event.detail }), ...(event.phrase ? { phrase: event.phrase } : {}) },
        finalAnswer: state.answered && (event.reason === 'final_answer' || event.reason === 'max_steps') ? state.parse?.text || state.raw || '' : null,
      }
  }
}

/**
 * The turn's results with the first outcome of `edit.callId` (the one that pairs with the call)
 * replaced by the edited content. O(results); the nodes after the replaced one are shared.
 */
function replaceResult(list: ResultList, edit: Extract<SessionEvent, { type: 'edit.applied' }>): ResultList {
  const nodes: ToolFinished[] = []
  for (let node = list; node !== null; node = node.earlier) nodes.push(node.latest)
  // Oldest first: the first logged outcome of a call is the one that pairs with it.
  const index = nodes.findLastIndex((r) => r.callId === edit.callId && r.parentCallId === undefined)
  if (index < 0) return list
  const { result: _result, error: _error, ...rest } = nodes[index]!
  nodes[index] = { ...rest, ...(edit.isError ? { error: edit.edited } : { result: edit.edited }) }
  let out: ResultList = null
  for (let i = nodes.length - 1; i >= 0; i--) out = { latest: nodes[i]!, earlier: out }
  return out
}

/** Folds a whole log (or a prefix of it): the state at cursor k is `fold(events.slice(0, k + 1))`. */
export function fold(events: readonly SessionEvent[]): LoopState {
  return events.reduce(apply, initialLoopState)
}
