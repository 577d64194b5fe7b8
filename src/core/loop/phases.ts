/**
 * Pure phase builders: each turns the state (plus, for phases that observe the outside world,
 * what was observed) into the event that phase appends. The decider uses them for live runs and
 * `trace/replay-events.ts` feeds logged data through them, so a run and a replay have one event
 * shape and one wording. Every builder is linear in the size of its turn.
 */
import type { AssistantMessage, JsonValue, Message, ToolCall, ToolMessage } from '../messages'
import { getProtocol } from '../protocols/index'
import type { ParseResult } from '../protocols/types'
import type { ToolSpec } from '../tools/types'
import { argumentProblems, prepareArguments, resolveToolName, unknownToolPhrase, validationMessage, validationPhrase } from '../validation/index'
import { phraseSchema, type Decision, type NewSessionEvent, type PhraseShape, type StopReason, type Verdict, type Warning } from './events'
import type { ModelOutput, ResponseTiming } from './interfaces'
import type { PlannedRequest } from './model-request'
import { parseCodeAction, parseWithFallback, RUN_CODE } from './parse-turn'
import { loopEnglish, loopPhrase, storedPhrase, type LoopPhrase } from './loop-text'
import { extendRepeatRun, parseExhausted, type LoopState, type ToolFinished } from './reducer'
import { signature } from './signature'
import { writeOpenAIAssistant } from '../wire/index'

type Event<T extends NewSessionEvent['type']> = Extract<NewSessionEvent, { type: T }>

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

/** The tool_call_id given to the i-th call of a turn when the model supplied none. Deterministic so replays are byte-identical. */
export function generatedCallId(step: number, index: number): string {
  return `call_${step}_${index}`
}

// ---- decide ---------------------------------------------------------------------------------

/**
 * The raw text logged for a model output: the text itself, or a native message serialised as
 * OpenAI Chat Completions wire JSON by `writeOpenAIAssistant` (pretty-printed, `arguments` a
 * string, an `id` only when the model gave one).
 */
export function rawOutput(output: ModelOutput): string {
  return output.kind === 'text' ? output.raw : writeOpenAIAssistant(output.message)
}

/** What `model.responded` records about the request: its step, and how it was cut and routed (see `modelRequest`). */
export type DecideFacts = Pick<PlannedRequest, 'step'> & Partial<Pick<PlannedRequest, 'window' | 'windowed' | 'finalTurn' | 'offeredTools'>>

/** `model.responded` for an output of `raw` to the request `planned`; `durationMs` is the model's wall time; `finishReason` the provider's, when known. */
export function modelResponded(planned: DecideFacts, raw: string, durationMs: number, timing?: ResponseTiming, finishReason?: string): Event<'model.responded'> {
  return {
    type: 'model.responded',
    step: planned.step,
    raw,
    durationMs,
    ...(finishReason === undefined ? {} : { finishReason }),
    ...(planned.offeredTools ? { offeredTools: planned.offeredTools } : {}),
    ...(planned.windowed && planned.window ? { window: planned.window } : {}),
    ...(planned.finalTurn ? { finalTurn: true } : {}),
    // A streamed endpoint response: time to first token and the raw chunks with arrival times.
    ...(timing?.firstTokenMs !== undefined ? { firstTokenMs: timing.firstTokenMs } : {}),
    ...(timing?.chunks ? { chunks: timing.chunks } : {}),
  }
}

/**
 * `model.failed` at `step` with the model's error message, and its phrase when the error
 * carried one (the sandbox's own findings: "route() must return an array of tool names, …").
 */
export function modelFailed(step: number, error: string, durationMs: number, errorPhrase?: PhraseShape): Event<'model.failed'> {
  return { type: 'model.failed', step, error, durationMs, ...(errorPhrase ? { errorPhrase } : {}) }
}

/** The phrase an error carries (`phrase`, as the sandbox attaches it), when it is a well-formed one. */
export function errorPhraseOf(error: unknown): PhraseShape | undefined {
  if (typeof error !== 'object' || error === null || !('phrase' in error)) return undefined
  const parsed = phraseSchema.safeParse(error.phrase)
  return parsed.success ? parsed.data : undefined
}

// ---- parse ----------------------------------------------------------------------------------

/**
 * `parse.completed` for the current turn's raw output. Live: the session's protocol, then the
 * fallback chain, or a code-as-action block; a missing or repeated `tool_call_id` gets a
 * generated one. `as-logged`: the session's protocol alone, ids kept as written (a repeat is an
 * anomaly to show, not something to fix). Spans point into `state.raw`.
 */
export function parseTurn(state: Pick<LoopState, 'raw' | 'protocol' | 'settings' | 'step' | 'validationPolicy'> & Partial<Pick<LoopState, 'finishReason'>>): Event<'parse.completed'> {
  const raw = state.raw ?? ''
  const asLogged = state.validationPolicy === 'as-logged'
  const result = asLogged ? parseWithFallback(raw, [state.protocol]) : liveParse(state, raw)
  const seen = new Set<string>()
  const calls = withUnreadCalls(result, state.finishReason ?? null).map((call, index) => {
    if (asLogged) return { ...call, id: call.id ?? generatedCallId(state.step, index) }
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
    // The unread call now rides in `calls`; the error stays as what the parse found.
    errors: result.errors.map(({ call: _call, ...error }) => error),
    ...(result.detection === undefined ? {} : { detection: result.detection }),
    ...(result.detectionPhrase === undefined ? {} : { detectionPhrase: result.detectionPhrase }),
  }
}

/**
 * The parse's calls with each native call whose arguments could not be read put back at its
 * position, arguments `{}`, the string as sent in `rawArguments` and the defect in
 * `argumentsError` (`arguments cut off at char 212 by the token limit` when the model stopped on
 * `finish_reason: "length"`). Such a call is answered with an error result, so its
 * `tool_call_id` stays paired and the assistant message is written back as the model sent it.
 */
function withUnreadCalls(result: ParseResult, finishReason: string | null): ParseResult['calls'] {
  const unread = result.errors.flatMap((error) => (error.call ? [error.call] : []))
  if (unread.length === 0) return result.calls
  const calls = [...result.calls]
  for (const call of [...unread].sort((a, b) => a.index - b.index)) {
    const byLimit = call.cutOff && finishReason === 'length' ? ' by the token limit' : ''
    const error = result.errors.find((e) => e.call === call)
    calls.splice(Math.min(call.index, calls.length), 0, {
      name: call.name,
      arguments: {},
      rawArguments: call.rawArguments,
      ...(call.id === undefined ? {} : { id: call.id }),
      spans: { call: error?.span ?? { start: 0, end: 0 } },
      argumentsError: `${call.problem}${byLimit}`,
    })
  }
  return calls
}

function liveParse(state: Pick<LoopState, 'protocol' | 'settings'>, raw: string): ParseResult {
  const parsed = parseWithFallback(raw, [state.protocol, ...state.settings.fallbackProtocols.filter((p) => p !== state.protocol)])
  if (!state.settings.codeAsAction || parsed.calls.length > 0) return parsed
  // Code-as-action: a fenced block in the output — or, for native formats, in the message's text.
  const native = getProtocol(parsed.protocol)?.native === true
  if (!native) return parseCodeAction(raw) ?? parsed
  const inText = parsed.text ? parseCodeAction(parsed.text) : undefined
  return inText ? { ...inText, calls: inText.calls.map((c) => ({ ...c, spans: { call: { start: 0, end: raw.length } } })) } : parsed
}

// ---- validate -------------------------------------------------------------------------------

/**
 * `validate.completed` for the current turn's calls under the session's validation policy.
 * Live: names resolved with aliases / normalisation / fuzzy matching (when enabled), arguments
 * prepared (coercions, dropped unknowns), dangerous tools marked for confirmation, and
 * repeated-call detection over earlier turns. `as-logged`: exact names, arguments checked as
 * written, no repeated-call detection (the log's anomalies report repeats).
 */
export function validateTurn(state: Pick<LoopState, 'parse' | 'tools' | 'settings' | 'repeatRun' | 'validationPolicy'>): Event<'validate.completed'> {
  const calls = state.parse?.calls ?? []
  if (state.validationPolicy === 'as-logged') {
    return { type: 'validate.completed', verdicts: calls.map((call) => asLoggedVerdict(call, state.tools)) }
  }
  const { settings } = state
  const verdicts: Verdict[] = calls.map((call) => {
    if (call.argumentsError !== undefined) return unreadVerdict(call, state.tools)
    if (call.name === RUN_CODE && settings.codeAsAction) return { callId: call.id, name: RUN_CODE, ok: true, problems: [], arguments: call.arguments }
    const resolved = resolveToolName(call.name, state.tools, { fuzzy: settings.fuzzyToolNames })
    if (!resolved) return unknownVerdict(call, state.tools)
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
      phrases: {
        problems: prepared.phrases.problems,
        ...(prepared.coercions.length ? { coercions: prepared.phrases.coercions } : {}),
        ...(prepared.warnings.length ? { warnings: prepared.phrases.warnings } : {}),
      },
    }
  })
  // Repeated-call detection: the same signature `limit` times in a row, counting earlier turns.
  const warnings: Warning[] = []
  let repeated: { name: string; count: number } | undefined
  let run = state.repeatRun
  for (const verdict of verdicts) {
    run = extendRepeatRun(run, [signature(verdict.name, verdict.arguments ?? {})])
    const count = run?.count ?? 1
    if (count >= settings.repeatedCall.limit && !repeated) {
      repeated = { name: verdict.name, count }
      const note = loopPhrase('repeatedCallWarning', { name: verdict.name, times: count })
      warnings.push({ code: 'repeated_call', detail: loopEnglish(note), phrase: storedPhrase(note) })
    }
  }
  return {
    type: 'validate.completed',
    verdicts,
    ...(repeated ? { repeated } : {}),
    ...(warnings.length ? { warnings } : {}),
  }
}

/** A call whose arguments could not be read never runs: its problem is the defect, named for the model. */
function unreadVerdict(call: { id: string; name: string; argumentsError?: string }, tools: readonly ToolSpec[]): Verdict {
  const spec = resolveToolName(call.name, tools, { match: 'exact' })?.spec
  const problem = call.argumentsError === undefined ? validationPhrase('argumentsUnread') : validationPhrase('argumentsDefect', { defect: call.argumentsError })
  return { callId: call.id, name: spec?.name ?? call.name, ok: false, problems: [validationMessage(problem)], phrases: { problems: [problem] } }
}

/** A call to a tool that does not exist: the error lists the tools there are. */
function unknownVerdict(call: { id: string; name: string }, tools: readonly ToolSpec[]): Verdict {
  const problem = unknownToolPhrase(call.name, tools)
  return { callId: call.id, name: call.name, ok: false, problems: [validationMessage(problem)], phrases: { problems: [problem] } }
}

function asLoggedVerdict(call: { id: string; name: string; arguments: Record<string, JsonValue>; argumentsError?: string }, tools: readonly ToolSpec[]): Verdict {
  if (call.argumentsError !== undefined) return unreadVerdict(call, tools)
  // as-logged: the exact name only, as the logging system matched it (no aliases or normalising).
  const spec = resolveToolName(call.name, tools, { match: 'exact' })?.spec
  if (!spec) return unknownVerdict(call, tools)
  const phrases = argumentProblems(spec, call.arguments)
  return { callId: call.id, name: call.name, ok: phrases.length === 0, problems: phrases.map(validationMessage), phrases: { problems: phrases } }
}

// ---- confirm / execute ----------------------------------------------------------------------

/** Ids of the calls validation marked for confirmation (dangerous tools). */
export function callsToConfirm(state: Pick<LoopState, 'verdicts'>): string[] {
  return (state.verdicts ?? []).filter((v) => v.ok && v.confirm).map((v) => v.callId)
}

/** The current turn's calls as the runner must run them, in output order. O(calls + tools). */
export function runnableCalls(state: Pick<LoopState, 'parse' | 'verdicts' | 'decisions' | 'tools' | 'settings'>): RunnableCall[] {
  // Verdicts come in the calls' order: looked up by position, by id only when they do not match.
  const verdictList = state.verdicts ?? []
  let verdictsById: Map<string, Verdict> | undefined
  const verdictOf = (id: string, index: number): Verdict | undefined => {
    const atIndex = verdictList[index]
    if (atIndex?.callId === id) return atIndex
    verdictsById ??= new Map(verdictList.map((v) => [v.callId, v]))
    return verdictsById.get(id)
  }
  const decisions = new Map((state.decisions ?? []).map((d) => [d.callId, d]))
  const specs = new Map<string, ToolSpec>()
  // First tool of a name wins, as a list lookup would.
  for (const tool of state.tools) if (!specs.has(tool.name)) specs.set(tool.name, tool)
  const codeAsAction = state.settings.codeAsAction
  // Optional fields are set, not spread in: a turn can hold a hundred thousand calls, and a
  // conditional spread takes V8's slow generic path for each.
  return (state.parse?.calls ?? []).map((parsed, index) => {
    const verdict = verdictOf(parsed.id, index)
    const spec = verdict ? (specs.get(verdict.name) ?? null) : null
    const decision = decisions.size === 0 ? undefined : decisions.get(parsed.id)
    const call: ToolCall = { id: parsed.id, name: verdict?.name ?? parsed.name, arguments: verdict?.arguments ?? parsed.arguments }
    if (parsed.rawArguments !== undefined) call.rawArguments = parsed.rawArguments
    const runnable: RunnableCall = { call, spec: parsed.name === RUN_CODE && codeAsAction ? null : spec, problems: verdict?.problems ?? [], dependsOn: parsed.dependsOn ?? [], index }
    if (decision) runnable.decision = decision
    return runnable
  })
}

/**
 * The first outcome of each call of the current turn (retries' outcomes, which name a
 * `parentCallId`, left out), by `tool_call_id`. O(results). Made once when the last result
 * arrives, for both {@link pendingCallIds} and {@link backfillMessages}.
 */
export function firstOutcomes(state: Pick<LoopState, 'results'>): Map<string, ToolFinished> {
  const outcomes = new Map<string, ToolFinished>()
  // Newest first, each overwriting: what stays is the first logged. No array of the results is made.
  for (let node = state.results; node !== null; node = node.earlier) {
    if (node.latest.parentCallId === undefined) outcomes.set(node.latest.callId, node.latest)
  }
  return outcomes
}

/** Ids of the current turn's calls that have no outcome yet (`outcomes`: see {@link firstOutcomes}). O(calls + results). */
export function pendingCallIds(state: Pick<LoopState, 'parse' | 'results'>, outcomes = firstOutcomes(state)): Set<string> {
  // Loops, not filter/map chains: after a turn of 100 000 calls this runs once per batch of results.
  const pending = new Set<string>()
  for (const call of state.parse?.calls ?? []) if (!outcomes.has(call.id)) pending.add(call.id)
  return pending
}

/** The fields every `tool.finished` of `call` starts from: not timed out, not truncated. */
export function finishedFor(call: { id: string; name: string; index?: number; arguments?: Record<string, JsonValue> }): Pick<ToolFinished, 'type' | 'callId' | 'name' | 'index' | 'arguments' | 'truncated' | 'timedOut'> {
  // Built in key order without spreads (once per call of a turn that may hold 100 000).
  const finished = { type: 'tool.finished', callId: call.id, name: call.name } as Pick<ToolFinished, 'type' | 'callId' | 'name' | 'index' | 'arguments' | 'truncated' | 'timedOut'>
  if (call.index !== undefined) finished.index = call.index
  if (call.arguments !== undefined) finished.arguments = call.arguments
  finished.truncated = false
  finished.timedOut = false
  return finished
}

/**
 * `tool.finished` for a tool message of a log: its content as the result, or as the error when
 * the log marks it as one. Logs carry no timing, so `durationMs` is 0.
 */
export function loggedToolFinished(message: ToolMessage, name: string): Event<'tool.finished'> {
  return { ...finishedFor({ id: message.tool_call_id, name }), ...(message.isError ? { error: message.content } : { result: message.content }), durationMs: 0 }
}

// ---- backfill -------------------------------------------------------------------------------

/** A tool error as written back: `Error: …`, without doubling a prefix the error already has (`TypeError: …`). */
export function errorContent(error: string): string {
  return /^(?:[A-Z]\w*)?Error\b/.test(error) ? error : `Error: ${error}`
}

/** What the model is told when its output held a malformed call. */
export function correctionMessage(parse: Pick<ParseResult, 'errors' | 'protocol'>): string {
  const lines = parse.errors.map((e) => `- ${e.message}`)
  return `Your last message contained a tool call that could not be parsed (${parse.protocol} format):\n${lines.join('\n')}\nPlease send the tool call again, correctly formatted.`
}

/**
 * The messages a live turn appends: the assistant message and, in call order, one tool message
 * per `tool_call_id` (an error for a call that was not run), then the correction when the output
 * held a malformed call and retries remain. Results are looked up once through a map: O(calls + results).
 */
export function backfillMessages(
  state: Pick<LoopState, 'parse' | 'finalTurn' | 'raw' | 'results' | 'parseFailures' | 'settings'>,
  results: ReadonlyMap<string, ToolFinished> = firstOutcomes(state),
): Message[] {
  const parse = state.parse
  const text = parse?.text ? parse.text : null
  const failed = parse !== null && parse.calls.length === 0 && parse.errors.length > 0
  // The first logged outcome of a call (`results`, see firstOutcomes) is the one that pairs with it.
  // The tools-disabled last turn never runs calls, whatever the model wrote.
  const calls: ToolCall[] = state.finalTurn
    ? []
    : (parse?.calls ?? []).map((c) => {
        const result = results.get(c.id)
        const call: ToolCall = { id: c.id, name: result?.name ?? c.name, arguments: result?.arguments ?? c.arguments }
        if (c.rawArguments !== undefined) call.rawArguments = c.rawArguments
        return call
      })
  // A native turn's raw output is the message's JSON: never written back as if the model had said it.
  const native = parse !== null && getProtocol(parse.protocol)?.native === true
  const assistant: AssistantMessage = calls.length > 0 ? { role: 'assistant', content: text, tool_calls: calls } : { role: 'assistant', content: text ?? (native ? '' : (state.raw ?? '')) }
  const out: Message[] = [assistant]
  for (const call of calls) {
    const result = results.get(call.id)
    const message: ToolMessage =
      result?.error !== undefined || !result
        ? { role: 'tool', tool_call_id: call.id, name: call.name, content: errorContent(result?.error ?? 'the call was not run.'), isError: true }
        : { role: 'tool', tool_call_id: call.id, name: call.name, content: result.result ?? '' }
    out.push(message)
  }
  if (failed && !parseExhausted(state) && !state.finalTurn && parse) out.push({ role: 'user', content: correctionMessage(parse) })
  return out
}

/**
 * `backfill.completed` for the current turn. Live: {@link backfillMessages}. `as-logged`: the
 * log's own messages of the turn (`logged`, the assistant message and what followed it), since
 * a log may hold what no live run would write (orphan results, user turns between calls).
 */
export function backfillTurn(
  state: Parameters<typeof backfillMessages>[0] & Pick<LoopState, 'validationPolicy'>,
  logged?: readonly Message[],
  outcomes?: ReadonlyMap<string, ToolFinished>,
): Event<'backfill.completed'> {
  const messages = state.validationPolicy === 'as-logged' && logged ? [...logged] : backfillMessages(state, outcomes)
  return { type: 'backfill.completed', messages }
}

// ---- stop -----------------------------------------------------------------------------------

/**
 * `loop.stopped` with `reason` and, when given, a detail: a phrase of `LOOP_TEXT` (the event
 * keeps its English as `detail` and the phrase as `phrase`), or a ready English string.
 */
export function stopped(reason: StopReason, detail?: string | LoopPhrase): Event<'loop.stopped'> {
  if (detail === undefined) return { type: 'loop.stopped', reason }
  if (typeof detail === 'string') return { type: 'loop.stopped', reason, detail }
  return { type: 'loop.stopped', reason, detail: loopEnglish(detail), phrase: storedPhrase(detail) }
}


/**
 * `loop.stopped` at the end of a replayed log: `error` with the provider's message when the log
 * says the last turn failed (`providerError`), else `final_answer` when the last assistant turn
 * made no call, otherwise `error` saying where the log ends (`loggedCalls`: names of the last
 * turn's calls as logged, which a malformed call's parse may not show).
 */
export function stopAtLogEnd(state: Pick<LoopState, 'step'>, loggedCalls: readonly string[], providerError?: string): Event<'loop.stopped'> {
  // The provider ended the turn with an error: that, not the missing answer, is why the loop stopped.
  if (providerError !== undefined) return stopped('error', loopPhrase('logProviderError', { error: providerError }))
  if (state.step === 0) return stopped('error', loopPhrase('logNoAssistant'))
  if (loggedCalls.length === 0) return stopped('final_answer')
  return stopped('error', loopPhrase('logEndsAfterCalls', { count: loggedCalls.length, names: loggedCalls.join(', ') }))
}
