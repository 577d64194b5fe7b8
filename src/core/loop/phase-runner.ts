/**
 * Where the runner computes the two phases whose cost grows with the model's output: parse
 * (raw output → calls) and validate (each call's arguments against its tool). The decider says
 * *that* a turn must be parsed or validated and hands over exactly the state those builders
 * read (`ParseInput`, `ValidateInput`, both plain data that survive a structured clone); a
 * `PhaseRunner` says *where*. The default runs the builders here; the browser passes one that
 * sends big turns to a worker so the page is never blocked by them. Either way the event is the
 * builder's, so a run's log does not depend on where its phases ran.
 */
import type { NewSessionEvent } from './events'
import { parseTurn, validateTurn } from './phases'
import type { LoopState } from './reducer'

/** What `parseTurn` reads: the turn's raw output, the wire format, settings, step, policy, finish reason. */
export type ParseInput = Pick<LoopState, 'raw' | 'protocol' | 'settings' | 'step' | 'validationPolicy' | 'finishReason'>

/** What `validateTurn` reads: the turn's parse, the tools, settings, the repeat run so far, policy. */
export type ValidateInput = Pick<LoopState, 'parse' | 'tools' | 'settings' | 'repeatRun' | 'validationPolicy'>

export type ParseCompleted = Extract<NewSessionEvent, { type: 'parse.completed' }>
export type ValidateCompleted = Extract<NewSessionEvent, { type: 'validate.completed' }>

/**
 * Computes the parse and validate phases. Each method resolves with exactly the event the
 * builder (`parseTurn` / `validateTurn`) returns for its input. A rejection is the phase
 * failing to run (a worker that died), not a bad output: bad outputs are events.
 */
export interface PhaseRunner {
  parse(input: ParseInput): Promise<ParseCompleted>
  validate(input: ValidateInput): Promise<ValidateCompleted>
  /** Gives up the phase in flight, if any (the run was stopped); its promise may then reject. */
  cancel?(): void
}

/** Runs both phases in this thread (Node, the CLI, tests, small turns in the browser). */
export const inThreadPhases: PhaseRunner = {
  parse: async (input) => parseTurn(input),
  validate: async (input) => validateTurn(input),
}

/** The state `parseTurn` reads, and nothing else (so a worker is sent only that). */
export function parseInput(state: LoopState): ParseInput {
  const { raw, protocol, settings, step, validationPolicy, finishReason } = state
  return { raw, protocol, settings, step, validationPolicy, finishReason }
}

/** The state `validateTurn` reads, and nothing else. */
export function validateInput(state: LoopState): ValidateInput {
  const { parse, tools, settings, repeatRun, validationPolicy } = state
  return { parse, tools, settings, repeatRun, validationPolicy }
}
