/**
 * The tool-use loop as a pure state machine: `transition(state, event) → [state, effects]`.
 *
 * It decides, it never runs anything. Pure phases (parse, validate, confirm requests,
 * backfill, stop) are returned as `append` effects carrying the event to log; impure ones
 * (`call_model`, `confirm`, `run_tools`) are performed by a runner that feeds their outcomes
 * back as events. Because `apply` accepts any event in any order, the same fold also rebuilds
 * replayed logs.
 */
import type { AssistantMessage, JsonValue, Message, ToolCall, ToolMessage } from '../messages'
import type { ParseResult } from '../protocols/types'
import type { ToolSpec } from '../tools/types'
import { prepareArguments, resolveToolName, unknownToolMessage } from '../validation/index'
import { windowMessages } from './context-window'
import type { Decision, NewSessionEvent, SessionEvent, StopReason, Verdict, Warning } from './events'
import type { ModelRequest } from './interfaces'
import { getProtocol } from '../protocols/index'
import { parseCodeAction, parseWithFallback, RUN_CODE } from './parse-turn'
import { DEFAULT_LOOP_SETTINGS, type LoopSettings } from './settings'

/** Parse outcome with every call carrying a `tool_call_id`. */
export type IdentifiedParse = Omit<ParseResult, 'calls'> & { calls: (ParseResult['calls'][number] & { id: string })[] }

type ToolFinished = Extract<SessionEvent, { type: 'tool.finished' }>

/** Everything the loop knows after some prefix of the log. */
export interface LoopState {
  /** Type of the last event applied, `null` before `session.started`. */
  last: SessionEvent['type'] | null
  source: 'live' | 'replay'
  protocol: string
  tools: ToolSpec[]
  maxSteps: number
  settings: LoopSettings
  /** The user's system prompt text before the generated instructions, when known (for routing). */
  systemPromptBase: string | null
  /** Conversation as the model will see it at the next decide (before windowing). */
  messages: Message[]
  /** Number of decide phases so far. */
  step: number
  /** Raw output of the current turn. */
  raw: string | null
  /** Parse of the current turn. */
  parse: IdentifiedParse | null
  verdicts: Verdict[] | null
  /** Confirmation decisions of the current turn. */
  decisions: Decision[] | null
  /** Tool outcomes of the current turn, in the order they were logged. */
  results: ToolFinished[]
  /** True once the model gave a turn that ends the loop with an answer. */
  answered: boolean
  /** Malformed outputs in a row. */
  parseFailures: number
  /** Signatures (`name` + arguments) of the calls validated so far, oldest first. */
  callHistory: string[]
  /** The current turn is the tools-disabled turn after max steps. */
  finalTurn: boolean
  /** Set by validation when repeated-call detection stops the loop. */
  repeated: { name: string; count: number } | null
  /** Final answer text once the loop ended with one. */
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
  settings: DEFAULT_LOOP_SETTINGS,
  systemPromptBase: null,
  messages: [],
  step: 0,
  raw: null,
  parse: null,
  verdicts: null,
  decisions: null,
  results: [],
  answered: false,
  parseFailures: 0,
  callHistory: [],
  finalTurn: false,
  repeated: null,
  finalAnswer: null,
  stop: null,
}

/** One call as the runner must run it. */
export interface RunnableCall {
  /** The call with its resolved tool name and prepared arguments. */
  call: ToolCall
  /** The tool, or `null` when the name resolved to none. */
  spec: ToolSpec | null
  /** Why it must not run; written back as its error. */
  problems: string[]
  /** The user's decision when the tool needed confirmation. */
  decision?: Decision
  /** Ids of calls in the same output that must finish first. */
  dependsOn: string[]
  /** Position in the model's output. */
  index: number
}

/** Something the runner must do next. */
export type Effect =
  | { type: 'call_model'; request: ModelRequest; window: { from: number; to: number }; finalTurn: boolean; systemPromptBase: string | null }
  | { type: 'confirm'; calls: RunnableCall[] }
  | { type: 'run_tools'; calls: RunnableCall[]; settings: LoopSettings; step: number }
  | { type: 'append'; event: NewSessionEvent }

function parseExhausted(state: LoopState): boolean {
  return state.parseFailures > state.settings.maxParseRetries
}

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
        settings: event.settings ?? DEFAULT_LOOP_SETTINGS,
        systemPromptBase: event.systemPromptBase ?? null,
        messages: event.messages,
      }
    case 'model.responded':
      return { ...next, step: state.step + 1, raw: event.raw, parse: null, verdicts: null, decisions: null, results: [], answered: false, finalTurn: event.finalTurn === true, repeated: null }
    case 'model.failed':
      return { ...next, step: state.step + 1, raw: null, parse: null, verdicts: null, decisions: null, results: [] }
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
        callHistory: [...state.callHistory, ...event.verdicts.map((v) => signature(v.name, v.arguments ?? {}))],
      }
    case 'confirm.requested':
      return next
    case 'confirm.decided':
      return { ...next, decisions: event.decisions }
    case 'tool.finished':
      return { ...next, results: [...state.results, event] }
    case 'backfill.completed':
      return { ...next, messages: [...state.messages, ...event.messages] }
    case 'loop.stopped':
      return {
        ...next,
        stop: { reason: event.reason, ...(event.detail === undefined ? {} : { detail: event.detail }) },
        finalAnswer: state.answered && (event.reason === 'final_answer' || event.reason === 'max_steps') ? state.parse?.text || state.raw || '' : null,
      }
  }
}

/** Folds a whole log (or a prefix of it): the state at cursor k is `fold(events.slice(0, k + 1))`. */
export function fold(events: readonly SessionEvent[]): LoopState {
  return events.reduce(apply, initialLoopState)
}

const stopWith = (reason: StopReason, detail?: string): Effect => ({ type: 'append', event: { type: 'loop.stopped', reason, ...(detail === undefined ? {} : { detail }) } })
const backfill = (state: LoopState): Effect => ({ type: 'append', event: { type: 'backfill.completed', messages: backfillMessages(state) } })

/** Decides what must happen after the state's last event. Pure. Empty when the loop has stopped. */
export function nextEffects(state: LoopState): Effect[] {
  if (state.stop || state.last === null) return []
  switch (state.last) {
    case 'session.started':
      return [callModel(state, false)]
    case 'model.responded':
      return [{ type: 'append', event: parseEvent(state) }]
    case 'model.failed':
      return [stopWith('error', 'The model failed to respond.')]
    case 'parse.completed': {
      const parse = state.parse
      if (!parse) return [stopWith('error', 'Nothing to parse.')]
      if (state.finalTurn) return [backfill(state)]
      if (parse.calls.length > 0) return [{ type: 'append', event: validateEvent(state) }]
      if (parse.errors.length > 0 && parseExhausted(state) && state.settings.onParseFailure === 'error') {
        return [stopWith('error', `The output still held a malformed call after ${state.settings.maxParseRetries} correction${state.settings.maxParseRetries === 1 ? '' : 's'}: ${parse.errors[0]?.message ?? ''}`)]
      }
      return [backfill(state)]
    }
    case 'validate.completed': {
      if (state.repeated && state.settings.repeatedCall.action === 'stop') {
        return [stopWith('repeated_call', `"${state.repeated.name}" was called ${state.repeated.count} times in a row with the same arguments.`)]
      }
      const needConfirm = (state.verdicts ?? []).filter((v) => v.ok && v.confirm).map((v) => v.callId)
      if (needConfirm.length > 0) return [{ type: 'append', event: { type: 'confirm.requested', callIds: needConfirm } }]
      return [runTools(state)]
    }
    case 'confirm.requested': {
      const ids = new Set((state.verdicts ?? []).filter((v) => v.ok && v.confirm).map((v) => v.callId))
      return [{ type: 'confirm', calls: runnableCalls(state).filter((c) => ids.has(c.call.id)) }]
    }
    case 'confirm.decided':
      return [runTools(state)]
    case 'tool.finished': {
      const pending = pendingCallIds(state)
      if (pending.size > 0) {
        const effect = runTools(state)
        return [{ ...effect, calls: effect.calls.filter((c) => pending.has(c.call.id)) }]
      }
      return [backfill(state)]
    }
    case 'backfill.completed':
      if (state.finalTurn) return [stopWith('max_steps', `Stopped after ${state.maxSteps} model turns; the last turn was asked without tools.`)]
      if (state.answered) return [stopWith('final_answer', state.parse && state.parse.errors.length > 0 ? 'The malformed output was taken as the final answer.' : undefined)]
      if (state.step >= state.maxSteps) {
        if (state.settings.finalTurnWithoutTools) return [callModel(state, true)]
        return [stopWith('max_steps', `Stopped after ${state.maxSteps} model turns without a final answer.`)]
      }
      return [callModel(state, false)]
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

/** The user message that asks for an answer once max steps is reached (with `finalTurnWithoutTools`). */
export const FINAL_TURN_NOTICE = 'You have used all the steps available for tools. Answer the user now with what you have, without calling any tool.'

function callModel(state: LoopState, finalTurn: boolean): Effect {
  const window = windowMessages(state.messages, state.settings.contextWindow)
  const messages = finalTurn ? [...window.messages, { role: 'user' as const, content: FINAL_TURN_NOTICE }] : window.messages
  return {
    type: 'call_model',
    request: { messages, tools: finalTurn ? [] : state.tools, step: state.step, protocol: state.protocol },
    window: { from: window.from, to: window.to },
    finalTurn,
    systemPromptBase: state.systemPromptBase,
  }
}

function parseEvent(state: LoopState): NewSessionEvent {
  const raw = state.raw ?? ''
  const parsed = parseWithFallback(raw, [state.protocol, ...state.settings.fallbackProtocols.filter((p) => p !== state.protocol)])
  // Code-as-action: a fenced block in the output — or, for native formats, in the message's text.
  let code = state.settings.codeAsAction && parsed.calls.length === 0 ? parseCodeAction(raw) : undefined
  if (code && getProtocol(parsed.protocol)?.native) code = undefined
  if (state.settings.codeAsAction && !code && parsed.calls.length === 0 && parsed.text && getProtocol(parsed.protocol)?.native) {
    const inText = parseCodeAction(parsed.text)
    if (inText) code = { ...inText, calls: inText.calls.map((c) => ({ ...c, spans: { call: { start: 0, end: raw.length } } })) }
  }
  const result = code ?? parsed
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

/** Stable JSON (sorted keys) of a call, for repeated-call detection. */
export function signature(name: string, args: Record<string, JsonValue>): string {
  const stable = (value: JsonValue): string =>
    Array.isArray(value)
      ? `[${value.map(stable).join(',')}]`
      : value !== null && typeof value === 'object'
        ? `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stable(value[k]!)}`).join(',')}}`
        : JSON.stringify(value)
  return `${name} ${stable(args)}`
}

function validateEvent(state: LoopState): NewSessionEvent {
  const { settings } = state
  const verdicts: Verdict[] = (state.parse?.calls ?? []).map((call) => {
    if (call.name === RUN_CODE && settings.codeAsAction) return { callId: call.id, name: RUN_CODE, ok: true, problems: [], arguments: call.arguments }
    const resolved = resolveToolName(call.name, state.tools, { fuzzy: settings.fuzzyToolNames })
    if (!resolved) return { callId: call.id, name: call.name, ok: false, problems: [unknownToolMessage(call.name, state.tools)] }
    const prepared = prepareArguments(resolved.spec, call.arguments, settings.validation)
    return {
      callId: call.id,
      name: resolved.spec.name,
      ok: prepared.problems.length === 0,
      problems: prepared.problems,
      resolution: resolved.resolution,
      arguments: prepared.arguments,
      ...(prepared.coercions.length ? { coercions: prepared.coercions } : {}),
      ...(prepared.warnings.length ? { warnings: prepared.warnings } : {}),
      ...(resolved.spec.dangerous ? { confirm: true } : {}),
    }
  })
  // Repeated-call detection: the same signature `limit` times in a row, counting earlier turns.
  const warnings: Warning[] = []
  let repeated: { name: string; count: number } | undefined
  const history = [...state.callHistory]
  for (const verdict of verdicts) {
    const sig = signature(verdict.name, verdict.arguments ?? {})
    let count = 1
    for (let i = history.length - 1; i >= 0 && history[i] === sig; i--) count += 1
    history.push(sig)
    if (count >= settings.repeatedCall.limit && !repeated) {
      repeated = { name: verdict.name, count }
      warnings.push({ code: 'repeated_call', detail: `"${verdict.name}" called ${count} times in a row with the same arguments.` })
    }
  }
  return {
    type: 'validate.completed',
    verdicts,
    ...(repeated ? { repeated } : {}),
    ...(warnings.length ? { warnings } : {}),
  }
}

function runnableCalls(state: LoopState): RunnableCall[] {
  return (state.parse?.calls ?? []).map((parsed, index) => {
    const verdict = state.verdicts?.find((v) => v.callId === parsed.id)
    const spec = state.tools.find((t) => t.name === verdict?.name) ?? null
    const decision = state.decisions?.find((d) => d.callId === parsed.id)
    const call: ToolCall = {
      id: parsed.id,
      name: verdict?.name ?? parsed.name,
      arguments: verdict?.arguments ?? parsed.arguments,
      ...(parsed.rawArguments === undefined ? {} : { rawArguments: parsed.rawArguments }),
    }
    return { call, spec: parsed.name === RUN_CODE && state.settings.codeAsAction ? null : spec, problems: verdict?.problems ?? [], dependsOn: parsed.dependsOn ?? [], index, ...(decision ? { decision } : {}) }
  })
}

function runTools(state: LoopState): Extract<Effect, { type: 'run_tools' }> {
  return { type: 'run_tools', calls: runnableCalls(state), settings: state.settings, step: state.step }
}

function pendingCallIds(state: LoopState): Set<string> {
  const done = new Set(state.results.filter((r) => r.parentCallId === undefined).map((r) => r.callId))
  return new Set((state.parse?.calls ?? []).map((c) => c.id).filter((id) => !done.has(id)))
}

/** The assistant message and, in call order, one tool message per `tool_call_id`. */
function backfillMessages(state: LoopState): Message[] {
  const parse = state.parse
  const text = parse?.text ? parse.text : null
  const failed = parse !== null && parse.calls.length === 0 && parse.errors.length > 0
  // The tools-disabled last turn never runs calls, whatever the model wrote.
  const calls: ToolCall[] = state.finalTurn
    ? []
    : (parse?.calls ?? []).map((c) => {
        const result = state.results.find((r) => r.callId === c.id && r.parentCallId === undefined)
        return { id: c.id, name: result?.name ?? c.name, arguments: result?.arguments ?? c.arguments, ...(c.rawArguments === undefined ? {} : { rawArguments: c.rawArguments }) }
      })
  const assistant: AssistantMessage = calls.length > 0 ? { role: 'assistant', content: text, tool_calls: calls } : { role: 'assistant', content: text ?? state.raw ?? '' }
  const out: Message[] = [assistant]
  for (const call of calls) {
    const result = state.results.find((r) => r.callId === call.id && r.parentCallId === undefined)
    const message: ToolMessage =
      result?.error !== undefined || !result
        ? { role: 'tool', tool_call_id: call.id, name: call.name, content: errorContent(result?.error ?? 'the call was not run.'), isError: true }
        : { role: 'tool', tool_call_id: call.id, name: call.name, content: result.result ?? '' }
    out.push(message)
  }
  if (failed && !parseExhausted(state) && !state.finalTurn && parse) out.push({ role: 'user', content: correctionMessage(parse) })
  return out
}

/** A tool error as written back: `Error: …`, without doubling a prefix the error already has (`TypeError: …`). */
function errorContent(error: string): string {
  return /^(?:[A-Z]\w*)?Error\b/.test(error) ? error : `Error: ${error}`
}

/** What the model is told when its output held a malformed call. */
export function correctionMessage(parse: Pick<ParseResult, 'errors' | 'protocol'>): string {
  const lines = parse.errors.map((e) => `- ${e.message}`)
  return `Your last message contained a tool call that could not be parsed (${parse.protocol} format):\n${lines.join('\n')}\nPlease send the tool call again, correctly formatted.`
}
