/**
 * Challenge checks: pure functions over a finished session's events that list what is still
 * wrong, each as a translation key under `challenge.problem.` with its parameters (empty = passed).
 */
import type { SessionEvent, StopReason } from '../core/loop/events'
import { checkAssertion, type EvalCase } from '../core/evals'
import type { Translated } from './inputs'

/** One thing still wrong with the session, for the learner. */
export interface Problem {
  key: string
  params?: Record<string, string | number>
}

/** A check over the session a challenge's workspace produced. */
export type Check = (events: readonly SessionEvent[]) => Problem[]

type Finished = Extract<SessionEvent, { type: 'tool.finished' }>

/** The reason the session stopped, or `undefined` while it has not. */
export function stopReason(events: readonly SessionEvent[]): StopReason | undefined {
  const stop = events.find((e) => e.type === 'loop.stopped')
  return stop?.type === 'loop.stopped' ? stop.reason : undefined
}

/** Every tool call that ran (code-as-action inner calls included). */
export function finishedCalls(events: readonly SessionEvent[]): Finished[] {
  return events.filter((e): e is Finished => e.type === 'tool.finished')
}

/** The session stopped with `reason`. */
export function stoppedWith(reason: StopReason): Check {
  return (events) => {
    const actual = stopReason(events)
    if (actual === undefined) return [{ key: 'notStopped' }]
    return actual === reason ? [] : [{ key: 'stopReason', params: { expected: reason, actual } }]
  }
}

/** At most `max` tool calls ran. */
export function atMostCalls(max: number): Check {
  return (events) => {
    const count = finishedCalls(events).length
    return count <= max ? [] : [{ key: 'tooManyCalls', params: { max, count } }]
  }
}

/** No tool call ended in an error (thrown, invalid, unknown, timed out or declined). */
export const noFailedCalls: Check = (events) => {
  const failed = finishedCalls(events).filter((e) => e.error !== undefined)
  return failed.length === 0 ? [] : [{ key: 'failedCalls', params: { count: failed.length, name: failed[0]?.name ?? '', error: (failed[0]?.error ?? '').slice(0, 120) } }]
}

/** Every `tool_call_id` in the backfilled tool messages is unique. */
export const uniqueToolCallIds: Check = (events) => {
  const ids = events.flatMap((e) => (e.type === 'backfill.completed' ? e.messages : [])).flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []))
  const seen = new Set<string>()
  const duplicate = ids.find((id) => (seen.has(id) ? true : (seen.add(id), false)))
  return duplicate === undefined ? [] : [{ key: 'duplicateId', params: { id: duplicate } }]
}

/** Instruction-like text in a tool result was flagged and the result wrapped as untrusted data. */
export const injectionContained: Check = (events) => {
  const flagged = finishedCalls(events).some((e) => (e.injection?.length ?? 0) > 0 && e.wrapped === true)
  return flagged ? [] : [{ key: 'injectionNotFlagged' }]
}

/** No tool message written back is longer than `max` chars. */
export function resultsAtMost(max: number): Check {
  return (events) => {
    const longest = Math.max(0, ...events.flatMap((e) => (e.type === 'backfill.completed' ? e.messages : [])).flatMap((m) => (m.role === 'tool' ? [m.content.length] : [])))
    return longest <= max ? [] : [{ key: 'resultTooLong', params: { max, chars: longest } }]
  }
}

/** At least `min` calls to `name` succeeded. */
export function succeededAtLeast(name: string, min: number): Check {
  return (events) => {
    const count = finishedCalls(events).filter((e) => e.name === name && e.error === undefined).length
    return count >= min ? [] : [{ key: 'tooFewSuccesses', params: { name, min, count } }]
  }
}

/** All of `checks`, their problems in order. */
export function all(...checks: Check[]): Check {
  return (events) => checks.flatMap((check) => check(events))
}

/** The first tool call that ran did not fail. */
export const firstCallOk: Check = (events) => {
  const first = finishedCalls(events)[0]
  if (!first) return [{ key: 'noCalls' }]
  return first.error === undefined ? [] : [{ key: 'failedCalls', params: { count: 1, name: first.name, error: first.error.slice(0, 120) } }]
}

/** The ids a native model itself sent in each turn's `tool_calls` are unique (before the loop renames any). */
export const modelSentUniqueIds: Check = (events) => {
  for (const event of events) {
    if (event.type !== 'model.responded') continue
    let message: unknown
    try {
      message = JSON.parse(event.raw)
    } catch {
      continue // text output: ids come from the loop
    }
    const calls = typeof message === 'object' && message !== null && 'tool_calls' in message && Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]) : []
    const ids = calls.flatMap((call) => (typeof call === 'object' && call !== null && 'id' in call && typeof call.id === 'string' ? [call.id] : []))
    const duplicate = ids.find((id, i) => ids.indexOf(id) !== i)
    if (duplicate !== undefined) return [{ key: 'duplicateId', params: { id: duplicate } }]
  }
  return []
}

/** The user got an answer: the loop stopped with `final_answer`, or the tool-less last turn answered. */
export const userGotAnswer: Check = (events) => {
  const answered = stopReason(events) === 'final_answer' || events.some((e) => e.type === 'model.responded' && e.finalTurn === true)
  return answered ? [] : [{ key: 'noAnswer', params: { reason: stopReason(events) ?? '' } }]
}

/** The session's user input: the last user message it started with, or `undefined`. */
export function sessionInput(events: readonly SessionEvent[]): string | undefined {
  const started = events.find((e) => e.type === 'session.started')
  if (started?.type !== 'session.started') return undefined
  return started.messages.filter((m) => m.role === 'user').at(-1)?.content
}

/** JSON of a value cut to `max` chars, for a problem's text. */
function brief(value: unknown, max = 120): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/**
 * The session answers eval case `evalCase`: it ran the case's input, and each of the case's
 * assertions holds over it (the check the Evals tab makes, over the session on the timeline).
 * The input may be in any of the lesson's languages (`translations`). A session of another input is one problem (`otherInput`), so changing the question passes nothing.
 */
export function passesCase(evalCase: EvalCase, translations?: Translated): Check {
  const inputs = [evalCase.input, ...(translations ? [translations['zh-CN'], translations['zh-TW']] : [])]
  return (events) => {
    const input = sessionInput(events)
    if (input === undefined || !inputs.includes(input)) return [{ key: 'otherInput', params: { expected: nearest(inputs, input ?? ''), actual: input ?? '' } }]
    return evalCase.assertions
      .map((assertion) => checkAssertion(assertion, events))
      .filter((result) => !result.passed)
      .map((result) => ({ key: 'assertionFailed', params: { case: evalCase.id, type: result.type, expected: brief(result.expected), actual: brief(result.actual) } }))
  }
}

/** The one of `texts` (a case's input in each language) sharing the most characters with `text`: the one in its language. */
function nearest(texts: readonly string[], text: string): string {
  const chars = new Set(text)
  const shared = (candidate: string) => [...new Set(candidate)].filter((c) => chars.has(c)).length
  return texts.reduce((best, candidate) => (shared(candidate) > shared(best) ? candidate : best))
}
