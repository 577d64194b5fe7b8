/**
 * The decider: `nextEffects(state) → effects`, what must happen after the state's last event.
 * It never runs anything. Cheap pure phases (confirm requests, backfill, stop) come back as
 * `append` effects carrying the event the phase builder made. Parse and validate, whose cost
 * grows with the model's output, come back as `parse` / `validate` effects carrying the builder's
 * input, so the runner can compute them where they do not block (see `phase-runner.ts`).
 * Impure ones (`call_model`, `confirm`, `run_tools`) are performed by the runner, which feeds
 * their outcomes back as events.
 */
import type { NewSessionEvent } from './events'
import { modelRequest, type PlannedRequest, type RequestSettings } from './model-request'
import { parseInput, validateInput, type ParseInput, type ValidateInput } from './phase-runner'
import { backfillTurn, callsToConfirm, firstOutcomes, pendingCallIds, runnableCalls, stopped, type RunnableCall } from './phases'
import { loopPhrase } from './loop-text'
import { parseExhausted, type LoopState } from './reducer'
import type { LoopSettings } from './settings'

/** Something the runner must do next. */
export type Effect =
  /** Ask the model with `planned.request`; a router may narrow the tools first (see `modelRequest`). */
  | { type: 'call_model'; planned: PlannedRequest; settings: RequestSettings }
  /** Ask the user about these calls to dangerous tools. */
  | { type: 'confirm'; calls: RunnableCall[] }
  /** Run these calls of turn `step`. */
  | { type: 'run_tools'; calls: RunnableCall[]; settings: LoopSettings; step: number }
  /** Append this event (a pure phase). */
  | { type: 'append'; event: NewSessionEvent }
  /** Append `parseTurn(input)` (the runner's `PhaseRunner` computes it). */
  | { type: 'parse'; input: ParseInput }
  /** Append `validateTurn(input)` (the runner's `PhaseRunner` computes it). */
  | { type: 'validate'; input: ValidateInput }

const append = (event: NewSessionEvent): Effect => ({ type: 'append', event })

function callModel(state: LoopState, finalTurn: boolean): Effect {
  const settings: RequestSettings = { contextWindow: state.settings.contextWindow, finalTurn }
  return { type: 'call_model', planned: modelRequest(state, settings, null), settings }
}

function runTools(state: LoopState, only?: ReadonlySet<string>): Extract<Effect, { type: 'run_tools' }> {
  const calls = runnableCalls(state)
  return { type: 'run_tools', calls: only ? calls.filter((c) => only.has(c.call.id)) : calls, settings: state.settings, step: state.step }
}

/** Decides what must happen after the state's last event. Pure. Empty when the loop has stopped. */
export function nextEffects(state: LoopState): Effect[] {
  if (state.stop || state.last === null) return []
  switch (state.last) {
    case 'session.started':
      return [callModel(state, false)]
    case 'model.responded':
      return [{ type: 'parse', input: parseInput(state) }]
    case 'model.failed':
      return [append(stopped('error', loopPhrase('modelFailed')))]
    case 'parse.completed': {
      const parse = state.parse
      if (!parse) return [append(stopped('error', loopPhrase('nothingToParse')))]
      if (state.finalTurn) return [append(backfillTurn(state))]
      if (parse.calls.length > 0) return [{ type: 'validate', input: validateInput(state) }]
      if (parse.errors.length > 0 && parseExhausted(state) && state.settings.onParseFailure === 'error') {
        const retries = state.settings.maxParseRetries
        return [append(stopped('error', loopPhrase('malformedAfterRetries', { count: retries, error: parse.errors[0]?.message ?? '' })))]
      }
      return [append(backfillTurn(state))]
    }
    case 'validate.completed': {
      if (state.repeated && state.settings.repeatedCall.action === 'stop') {
        return [append(stopped('repeated_call', loopPhrase('repeatedCallStop', { name: state.repeated.name, times: state.repeated.count })))]
      }
      const needConfirm = callsToConfirm(state)
      if (needConfirm.length > 0) return [append({ type: 'confirm.requested', callIds: needConfirm })]
      return [runTools(state)]
    }
    case 'confirm.requested': {
      const ids = new Set(callsToConfirm(state))
      return [{ type: 'confirm', calls: runnableCalls(state).filter((c) => ids.has(c.call.id)) }]
    }
    case 'confirm.decided':
      return [runTools(state)]
    case 'tool.finished': {
      // One map of outcomes for both: the last result of a 100 000-call turn built it twice.
      const outcomes = firstOutcomes(state)
      const pending = pendingCallIds(state, outcomes)
      return pending.size > 0 ? [runTools(state, pending)] : [append(backfillTurn(state, undefined, outcomes))]
    }
    case 'backfill.completed':
      if (state.finalTurn) return [append(stopped('max_steps', loopPhrase('maxStepsFinalTurn', { steps: state.maxSteps, count: state.maxSteps })))]
      if (state.answered) return [append(stopped('final_answer', state.parse && state.parse.errors.length > 0 ? loopPhrase('malformedAsAnswer') : undefined))]
      if (state.step >= state.maxSteps) {
        if (state.settings.finalTurnWithoutTools) return [callModel(state, true)]
        return [append(stopped('max_steps', loopPhrase('maxSteps', { steps: state.maxSteps, count: state.maxSteps })))]
      }
      return [callModel(state, false)]
    case 'edit.applied': {
      // An edited model output is parsed again; an edited result is backfilled (after any call still pending).
      if (state.raw !== null && state.parse === null) return [{ type: 'parse', input: parseInput(state) }]
      const pending = pendingCallIds(state)
      return pending.size > 0 ? [runTools(state, pending)] : [append(backfillTurn(state))]
    }
    case 'loop.stopped':
      return []
  }
}
