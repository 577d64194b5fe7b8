/**
 * The tool-use loop as a pure state machine: `transition(state, event) → [state, effects]`.
 *
 * It decides, it never runs anything. Pure phases (parse, validate, backfill, stop) are
 * returned as `append` effects carrying the event to log; impure ones (`call_model`,
 * `run_tools`) are performed by a runner that feeds their outcomes back as events.
 * Because `apply` accepts any event in any order, the same fold also rebuilds replayed logs.
 */
import type { AssistantMessage, Message, ToolCall, ToolMessage } from '../messages'
import { getProtocol } from '../protocols/index'
import type { ParseResult } from '../protocols/types'
import type { ToolSpec } from '../tools/types'
import { resolveTool, unknownToolMessage, validateArguments } from '../validation/index'
import type { NewSessionEvent, SessionEvent, StopReason, Verdict } from './events'
import type { ModelRequest } from './interfaces'

/** Parse outcome with every call carrying a `tool_call_id`. */
export type IdentifiedParse = Omit<ParseResult, 'calls'> & { calls: (ParseResult['calls'][number] & { id: string })[] }

/** Everything the loop knows after some prefix of the log. */
export interface LoopState {
  /** Type of the last event applied, `null` before `session.started`. */
  last: SessionEvent['type'] | null
  source: 'live' | 'replay'
  protocol: string
  tools: ToolSpec[]
  maxSteps: number
  /** Conversation as the model will see it at the next decide. */
  messages: Message[]
  /** Number of decide phases so far. */
  step: number
  /** Raw output of the current turn. */
  raw: string | null
  /** Parse of the current turn. */
  parse: IdentifiedParse | null
  verdicts: Verdict[] | null
  /** Tool outcomes of the current turn, in completion order. */
  results: Extract<SessionEvent, { type: 'tool.finished' }>[]
  /** True once the model gave a turn without calls or parse errors. */
  answered: boolean
  /** Final answer text when the loop ended with `final_answer`. */
  finalAnswer: string | null
  stop: { reason: StopReason; detail?: string } | null
}

/** The state before any event. */
export const initialLoopState: LoopState = {
  last: null,
  source: 'live',
  protocol: 'openai',
  tools: [],
  maxSteps: 8,
  messages: [],
  step: 0,
  raw: null,
  parse: null,
  verdicts: null,
  results: [],
  answered: false,
  finalAnswer: null,
  stop: null,
}

/** Something the runner must do next. */
export type Effect =
  | { type: 'call_model'; request: ModelRequest }
  | { type: 'run_tools'; calls: { call: ToolCall; spec: ToolSpec | null; problems: string[] }[] }
  | { type: 'append'; event: NewSessionEvent }

/** Folds one event into the state. Pure; never throws. */
export function apply(state: LoopState, event: SessionEvent): LoopState {
  const next: LoopState = { ...state, last: event.type }
  switch (event.type) {
    case 'session.started':
      return {
        ...initialLoopState,
        last: event.type,
        source: event.source,
        protocol: event.protocol,
        tools: event.tools,
        maxSteps: event.maxSteps,
        messages: event.messages,
      }
    case 'model.responded':
      return { ...next, step: state.step + 1, raw: event.raw, parse: null, verdicts: null, results: [], answered: false }
    case 'model.failed':
      return { ...next, step: state.step + 1, raw: null, parse: null, verdicts: null, results: [] }
    case 'parse.completed':
      return {
        ...next,
        parse: { protocol: event.protocol, calls: event.calls, text: event.text, repairs: event.repairs, errors: event.errors, detection: event.detection },
        answered: event.calls.length === 0 && event.errors.length === 0,
      }
    case 'validate.completed':
      return { ...next, verdicts: event.verdicts }
    case 'tool.finished':
      return { ...next, results: [...state.results, event] }
    case 'backfill.completed':
      return { ...next, messages: [...state.messages, ...event.messages] }
    case 'loop.stopped':
      return {
        ...next,
        stop: { reason: event.reason, ...(event.detail === undefined ? {} : { detail: event.detail }) },
        finalAnswer: event.reason === 'final_answer' ? (state.parse?.text ?? '') : null,
      }
  }
}

/** Folds a whole log (or a prefix of it): the state at cursor k is `fold(events.slice(0, k + 1))`. */
export function fold(events: readonly SessionEvent[]): LoopState {
  return events.reduce(apply, initialLoopState)
}

/** Decides what must happen after the state's last event. Pure. Empty when the loop has stopped. */
export function nextEffects(state: LoopState): Effect[] {
  if (state.stop || state.last === null) return []
  switch (state.last) {
    case 'session.started':
      return [callModel(state)]
    case 'model.responded':
      return [{ type: 'append', event: parseEvent(state) }]
    case 'model.failed':
      return [{ type: 'append', event: { type: 'loop.stopped', reason: 'error', detail: 'The model failed to respond.' } }]
    case 'parse.completed':
      if (state.parse && state.parse.calls.length > 0) return [{ type: 'append', event: validateEvent(state) }]
      return [{ type: 'append', event: { type: 'backfill.completed', messages: backfillMessages(state) } }]
    case 'validate.completed':
      return [runTools(state)]
    case 'tool.finished': {
      const pending = pendingCalls(state)
      if (pending.length > 0) return [{ ...runTools(state), calls: runTools(state).calls.filter((c) => pending.includes(c.call.id)) }]
      return [{ type: 'append', event: { type: 'backfill.completed', messages: backfillMessages(state) } }]
    }
    case 'backfill.completed':
      if (state.answered) return [{ type: 'append', event: { type: 'loop.stopped', reason: 'final_answer' } }]
      if (state.step >= state.maxSteps) {
        return [{ type: 'append', event: { type: 'loop.stopped', reason: 'max_steps', detail: `Stopped after ${state.maxSteps} model turns without a final answer.` } }]
      }
      return [callModel(state)]
    case 'loop.stopped':
      return []
  }
}

/** `transition(state, event) → [state, effects]`: apply the event, then decide. Pure. */
export function transition(state: LoopState, event: SessionEvent): [LoopState, Effect[]] {
  const next = apply(state, event)
  return [next, nextEffects(next)]
}

/** The tool_call_id given to the i-th call of a turn when the model supplied none. Deterministic so replays are byte-identical. */
export function generatedCallId(step: number, index: number): string {
  return `call_${step}_${index}`
}

function callModel(state: LoopState): Effect {
  return { type: 'call_model', request: { messages: state.messages, tools: state.tools, step: state.step, protocol: state.protocol } }
}

function parseEvent(state: LoopState): NewSessionEvent {
  const protocol = getProtocol(state.protocol)
  const raw = state.raw ?? ''
  if (!protocol) {
    return { type: 'parse.completed', protocol: state.protocol, calls: [], text: raw, repairs: [], errors: [{ code: 'unknown_protocol', message: `Unknown protocol "${state.protocol}".` }] }
  }
  const result = protocol.parse(raw)
  const seen = new Set<string>()
  const calls = result.calls.map((call, index) => {
    // A model-supplied id that repeats within the turn would pair two results with one call.
    let id = call.id && !seen.has(call.id) ? call.id : generatedCallId(state.step, index)
    while (seen.has(id)) id = `${id}_`
    seen.add(id)
    return { ...call, id }
  })
  return {
    type: 'parse.completed',
    protocol: result.protocol,
    calls,
    text: result.text,
    repairs: result.repairs,
    errors: result.errors,
    ...(result.detection === undefined ? {} : { detection: result.detection }),
  }
}

function validateEvent(state: LoopState): NewSessionEvent {
  const verdicts: Verdict[] = (state.parse?.calls ?? []).map((call) => {
    const spec = resolveTool(call.name, state.tools)
    if (!spec) return { callId: call.id, name: call.name, ok: false, problems: [unknownToolMessage(call.name, state.tools)] }
    const problems = validateArguments(spec, call.arguments)
    return { callId: call.id, name: spec.name, ok: problems.length === 0, problems }
  })
  return { type: 'validate.completed', verdicts }
}

function runTools(state: LoopState): Extract<Effect, { type: 'run_tools' }> {
  const calls = (state.parse?.calls ?? []).map((parsed) => {
    const verdict = state.verdicts?.find((v) => v.callId === parsed.id)
    const spec = resolveTool(parsed.name, state.tools) ?? null
    const call: ToolCall = { id: parsed.id, name: parsed.name, arguments: parsed.arguments, ...(parsed.rawArguments === undefined ? {} : { rawArguments: parsed.rawArguments }) }
    return { call, spec, problems: verdict?.problems ?? [] }
  })
  return { type: 'run_tools', calls }
}

function pendingCalls(state: LoopState): string[] {
  const done = new Set(state.results.map((r) => r.callId))
  return (state.parse?.calls ?? []).map((c) => c.id).filter((id) => !done.has(id))
}

/** The assistant message and, in call order, one tool message per `tool_call_id`. */
function backfillMessages(state: LoopState): Message[] {
  const parse = state.parse
  const text = parse?.text ? parse.text : null
  const calls: ToolCall[] = (parse?.calls ?? []).map((c) => ({
    id: c.id,
    name: c.name,
    arguments: c.arguments,
    ...(c.rawArguments === undefined ? {} : { rawArguments: c.rawArguments }),
  }))
  const assistant: AssistantMessage = calls.length > 0 ? { role: 'assistant', content: text, tool_calls: calls } : { role: 'assistant', content: text ?? state.raw ?? '' }
  const out: Message[] = [assistant]
  for (const call of calls) {
    const result = state.results.find((r) => r.callId === call.id)
    const message: ToolMessage = result?.error !== undefined || !result
      ? { role: 'tool', tool_call_id: call.id, name: call.name, content: `Error: ${result?.error ?? 'the call was not run.'}`, isError: true }
      : { role: 'tool', tool_call_id: call.id, name: call.name, content: result.result ?? '' }
    out.push(message)
  }
  if (calls.length === 0 && parse && parse.errors.length > 0) {
    out.push({ role: 'user', content: correctionMessage(parse) })
  }
  return out
}

/** What the model is told when its output held a malformed call. */
export function correctionMessage(parse: Pick<ParseResult, 'errors' | 'protocol'>): string {
  const lines = parse.errors.map((e) => `- ${e.message}`)
  return `Your last message contained a tool call that could not be parsed (${parse.protocol} format):\n${lines.join('\n')}\nPlease send the tool call again, correctly formatted.`
}
