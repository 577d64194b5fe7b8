/**
 * The anomaly checks run on a replayed conversation: wiring mistakes between tool calls
 * and their results, arguments that are not JSON, loops and oversized results, history a
 * trim would break, and (when tool definitions are known) calls to unknown tools or with
 * arguments that break the tool's schema. `anomaly-catalogue.ts` explains each code.
 *
 * Pure; time linear in the conversation (plus schema validation per call).
 */
import type { Message, ToolCall } from '../messages'
import type { ToolSpec } from '../tools/types'
import { argumentProblems, resolveToolName, VALIDATION_TEXT } from '../validation'
import { stableJson } from '../util/json-walk'
import { pairedEarliest, safeTrimStart, systemHead } from '../loop/context-window'
import { readArguments } from './arguments'
import type { MessageMeta } from './importers/types'
import { storedPhrase, type StoredPhrase } from '../loop/loop-text'
import { phraseRef, type Phrase, type PhraseRef } from '../util/phrase'
import { traceEnglish, tracePhrase, traceRef, type TraceTextKey } from './trace-text'

/** Anomaly codes. Stable: they are shown to users, printed by the CLI and matched by tests. */
export const ANOMALY_CODES = [
  /** A `tool_call_id` already used by an earlier call in the same conversation (one per reused id). */
  'duplicate_tool_call_id',
  /** A tool message whose `tool_call_id` answers no call that is still waiting for a result. */
  'orphan_tool_result',
  /** A tool call that no later tool message answers. */
  'unanswered_tool_call',
  /** A tool message whose id matches no waiting call, but which evidently answers the one call of the turn still waiting. */
  'mismatched_tool_call_id',
  /** Results of one turn's parallel calls come back in a different order than the calls. */
  'results_out_of_order',
  /** An assistant turn cut off by the token limit (`finish_reason: "length"`), with its calls, kept in later history. */
  'truncated_call_in_history',
  /** A call's `arguments` string is not valid JSON, or not a JSON object. */
  'invalid_arguments_json',
  /** A call's `arguments` string is a JSON string that itself holds the JSON object. */
  'double_encoded_arguments',
  /** A tool message whose `name` differs from the name of the call it answers. */
  'tool_name_mismatch',
  /** A call to a tool that is not among the known tool definitions (needs tools). */
  'unknown_tool',
  /** A call whose arguments break its tool's input schema (needs tools). */
  'schema_violation',
  /** The same tool with the same arguments called several times in a row (default 3). */
  'repeated_call',
  /** A tool result longer than `LARGE_TOOL_RESULT_CHARS`. */
  'large_tool_result',
  /** Keeping only the last N messages (default 20) would keep a tool result without its call. */
  'history_split_by_trim',
  /** A follow-up request offered other tools than the request of the turn before, or none (needs logged requests). */
  'tools_changed',
  /** The provider reported an error for this turn (an `error` stream event, a failed response); the detail has its message. */
  'provider_error',
  /** The model refused (`refusal` text or stop reason) instead of answering. */
  'refusal',
  /** The output hit the token limit in the middle of a tool call, so that call's arguments are cut short. */
  'truncated_call',
] as const

/** An anomaly code. */
export type AnomalyCode = (typeof ANOMALY_CODES)[number]

/** One problem found in a conversation. */
export interface Anomaly {
  /** 0-based index into the conversation's messages of the message where it shows. */
  message: number
  /** What kind of problem. */
  code: AnomalyCode
  /** One sentence explaining this occurrence, naming the tool, id or field involved (English; the CLI prints it). */
  detail: string
  /** `detail` as a phrase of `TRACE_TEXT`, for the UI to translate. */
  phrase?: StoredPhrase
}

/** An anomaly whose detail is `text` (a phrase of `TRACE_TEXT`): English `detail` and the phrase. */
function anomaly(message: number, code: AnomalyCode, key: TraceTextKey, params?: Phrase['params']): Anomaly {
  const text = tracePhrase(key, params)
  return { message, code, detail: traceEnglish(text), phrase: storedPhrase(text) }
}

/** A tool result longer than this many characters (UTF-16 code units) is reported as `large_tool_result`. */
export const LARGE_TOOL_RESULT_CHARS = 20_000
/** Identical consecutive calls from this many on are reported as `repeated_call`. */
export const REPEATED_CALL_THRESHOLD = 3
/** Window size of the trim `history_split_by_trim` simulates: the last 20 messages (leading system messages kept aside). */
export const DEFAULT_TRIM_WINDOW = 20
/** Finish reasons that mean the output hit the token limit: OpenAI / OTel / AI SDK, Anthropic, Responses API. */
export const TRUNCATION_REASONS: ReadonlySet<string> = new Set(['length', 'max_tokens', 'max_output_tokens'])

/** Options for `findAnomalies`. */
export interface AnomalyOptions {
  /** Per-message facts from the log (finish reasons), keyed by message index; enables `truncated_call_in_history`. */
  messageMeta?: Readonly<Record<number, MessageMeta>>
  /** Messages a trimmed history keeps, for `history_split_by_trim`; `false` turns the check off. Default 20. */
  trimWindow?: number | false
  /** Identical consecutive calls that count as a loop (default 3, at least 2). */
  repeatThreshold?: number
  /** Result length above which `large_tool_result` is reported (default `LARGE_TOOL_RESULT_CHARS`). */
  largeResultChars?: number
}

interface PendingCall {
  call: ToolCall
  message: number
  /** Position of the call within its assistant message. */
  position: number
}

/**
 * Find anomalies in a conversation. Pure.
 *
 * Each tool message is paired with the most recent call with the same id that is still
 * unanswered, so a reused id is reported once, as `duplicate_tool_call_id` on the message
 * where it is first reused, and does not also show up as orphan or unanswered. A tool
 * message whose id matches no waiting call is paired with the latest turn's only waiting
 * call (or its only waiting call of the same name) and reported as `mismatched_tool_call_id`;
 * otherwise it is an `orphan_tool_result`.
 *
 * @param tools - Tool definitions; without them `unknown_tool` and `schema_violation` are not checked.
 * @returns Anomalies ordered by message index (ties in the order found).
 */
export function findAnomalies(messages: readonly Message[], tools?: readonly ToolSpec[], options: AnomalyOptions = {}): Anomaly[] {
  const anomalies: Anomaly[] = []
  const firstUse = new Map<string, PendingCall>()
  const reported = new Set<string>()
  const waiting = new Map<string, PendingCall[]>()
  const answeredBy = new Map<string, number>()
  /** Calls of the latest assistant turn that have no result yet. */
  let turnOpen: PendingCall[] = []
  /** Highest call position answered so far in the latest turn, and whether disorder was reported. */
  let turnLastPosition = -1
  let turnDisorderReported = false
  const repeats = { key: '', count: 0 }
  const repeatThreshold = Math.max(2, options.repeatThreshold ?? REPEATED_CALL_THRESHOLD)
  const largeChars = options.largeResultChars ?? LARGE_TOOL_RESULT_CHARS
  /** Tools offered by the latest logged request, and the message it produced. */
  let lastOffered: { names: readonly string[]; message: number } | undefined

  const take = (pending: PendingCall): void => {
    const stack = waiting.get(pending.call.id)
    const at = stack?.lastIndexOf(pending) ?? -1
    if (stack && at >= 0) stack.splice(at, 1)
    turnOpen = turnOpen.filter((open) => open !== pending)
  }

  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      turnOpen = []
      turnLastPosition = -1
      turnDisorderReported = false
      const calls = message.tool_calls ?? []
      const meta = options.messageMeta?.[index]
      const reason = meta?.finishReason
      const truncated = reason !== undefined && TRUNCATION_REASONS.has(reason)
      // A call is cut when the token limit ended the output inside it: its arguments never closed.
      const cut = truncated ? calls.filter((call) => call.rawArguments !== undefined && readArguments(call.rawArguments).problem !== undefined) : []
      if (cut.length > 0) {
        anomalies.push(anomaly(index, 'truncated_call', 'truncatedCall', { reason: reason ?? '', count: cut.length, names: cut.map((call) => call.name).join(', '), args: abbreviate(cut[0]?.rawArguments ?? '', 60) }))
      }
      if (meta?.providerError !== undefined) anomalies.push(anomaly(index, 'provider_error', 'providerError', { error: meta.providerError }))
      if (meta?.refusal !== undefined) anomalies.push(anomaly(index, 'refusal', 'refusal', { text: abbreviate(meta.refusal, 160) }))
      const offered = meta?.offeredTools
      if (offered !== undefined) {
        if (lastOffered !== undefined) {
          const change = toolsChange(lastOffered.names, offered, lastOffered.message)
          if (change !== undefined) anomalies.push(anomaly(index, 'tools_changed', 'toolsChanged', change))
        }
        lastOffered = { names: offered, message: index }
      }
      calls.forEach((call, position) => {
        const earlier = firstUse.get(call.id)
        if (earlier && !reported.has(call.id)) {
          reported.add(call.id)
          anomalies.push(anomaly(index, 'duplicate_tool_call_id', 'duplicateId', { id: call.id, name: call.name, earlier: earlier.call.name, message: earlier.message }))
        }
        const pending = { call, message: index, position }
        if (!earlier) firstUse.set(call.id, pending)
        const stack = waiting.get(call.id) ?? []
        stack.push(pending)
        waiting.set(call.id, stack)
        turnOpen.push(pending)
        anomalies.push(...checkCall(call, index, tools, cut.includes(call)))
        const key = `${call.name}\u0000${stableJson(call.arguments)}`
        repeats.count = repeats.key === key ? repeats.count + 1 : 1
        repeats.key = key
        if (repeats.count === repeatThreshold) {
          anomalies.push(anomaly(index, 'repeated_call', 'repeatedCall', { name: call.name, times: repeatThreshold, args: abbreviate(stableJson(call.arguments), 80) }))
        }
      })
      if (calls.length > 0 && truncated && index < messages.length - 1) {
        anomalies.push(anomaly(index, 'truncated_call_in_history', 'truncatedInHistory', { reason: reason ?? '', count: calls.length, names: calls.map((call) => call.name).join(', ') }))
      }
      return
    }
    if (message.role !== 'tool') return
    if (message.content.length > largeChars) {
      const size = { length: message.content.length, limit: largeChars }
      anomalies.push(message.name ? anomaly(index, 'large_tool_result', 'largeResultOf', { ...size, name: message.name }) : anomaly(index, 'large_tool_result', 'largeResult', size))
    }
    // With a reused id, prefer the waiting call whose name the result carries.
    const candidates = waiting.get(message.tool_call_id) ?? []
    let pending = candidates.findLast((candidate) => candidate.call.name === message.name) ?? candidates.at(-1)
    if (!pending) {
      const sameName = message.name === '' ? [] : turnOpen.filter((open) => open.call.name === message.name)
      const evident = turnOpen.length === 1 ? turnOpen[0] : sameName.length === 1 ? sameName[0] : undefined
      if (evident) {
        pending = evident
        const params = { id: message.tool_call_id, name: evident.call.name, callId: evident.call.id, message: evident.message }
        anomalies.push(anomaly(index, 'mismatched_tool_call_id', turnOpen.length === 1 ? 'mismatchedOnly' : 'mismatchedSameName', params))
      } else {
        const earlier = answeredBy.get(message.tool_call_id)
        anomalies.push(
          earlier === undefined
            ? anomaly(index, 'orphan_tool_result', 'orphanNoCall', { id: message.tool_call_id })
            : anomaly(index, 'orphan_tool_result', 'orphanAnswered', { id: message.tool_call_id, message: earlier }),
        )
        return
      }
    }
    const inTurn = turnOpen.includes(pending)
    take(pending)
    answeredBy.set(message.tool_call_id, index)
    // A reused id makes the pairing a guess, so order is not judged on it.
    if (inTurn && !reported.has(pending.call.id)) {
      if (pending.position < turnLastPosition && !turnDisorderReported) {
        turnDisorderReported = true
        anomalies.push(anomaly(index, 'results_out_of_order', 'outOfOrder', { position: pending.position + 1, name: pending.call.name, message: pending.message, after: turnLastPosition + 1 }))
      }
      turnLastPosition = Math.max(turnLastPosition, pending.position)
    }
    if (message.name !== '' && message.name !== pending.call.name) {
      anomalies.push(anomaly(index, 'tool_name_mismatch', 'nameMismatch', { name: pending.call.name, id: pending.call.id, message: pending.message, named: message.name }))
    }
  })

  for (const stack of waiting.values()) {
    for (const pending of stack) {
      anomalies.push(anomaly(pending.message, 'unanswered_tool_call', 'unanswered', { name: pending.call.name, id: pending.call.id }))
    }
  }
  if (options.trimWindow !== false) {
    const split = findTrimSplit(messages, options.trimWindow ?? DEFAULT_TRIM_WINDOW)
    if (split) anomalies.push(split)
  }
  // Stable sort: unanswered calls and trim splits were collected last but belong at their message.
  return anomalies.sort((a, b) => a.message - b.message)
}

/**
 * `history_split_by_trim`: simulates trimming the history to the last `window` messages (leading
 * system messages kept aside) before every model call (each assistant turn, and one more after
 * the last message), with the loop's own trim (`safeTrimStart`, which the live context window
 * and `toolstep replay --trim-window N --export` use). Reports the first request where keeping
 * exactly the last `window` messages would separate a call from its result: a result kept
 * without its call (the window starts on it, or on a message before it), or a call kept without
 * a result logged before it. Providers reject such a history, or the model sees a result for a
 * call it never made. One anomaly per conversation, at the stranded message. O(requests × window).
 */
function findTrimSplit(messages: readonly Message[], window: number): Anomaly | undefined {
  if (!Number.isFinite(window) || window < 1) return undefined
  const pinned = systemHead(messages)
  const earliest = pairedEarliest(messages)
  let first: Split | undefined
  let count = 0
  for (let request = 0; request <= messages.length; request++) {
    if (request < messages.length && messages[request]?.role !== 'assistant') continue
    const start = request - window
    if (start <= pinned) continue
    if (safeTrimStart(earliest, start, request) === start) continue
    count++
    if (!first) first = describeSplit(messages, earliest, start, request, window)
  }
  if (!first) return undefined
  const more = count > 1 ? traceRef('splitMore', { count: count - 1 }) : ''
  return anomaly(first.message, 'history_split_by_trim', first.key, { ...first.params, more })
}

/** Where the first split shows, and its phrase without the "later calls" tail. */
interface Split {
  message: number
  key: 'splitResult' | 'splitCall'
  params: Record<string, string | number | PhraseRef>
}

/** The split for the first message of `[start, request)` whose partner falls before `start`. */
function describeSplit(messages: readonly Message[], earliest: Int32Array, start: number, request: number, window: number): Split | undefined {
  const before = request < messages.length ? traceRef('splitBeforeCall', { window, request }) : traceRef('splitBeforeNext', { window })
  for (let index = start; index < request; index++) {
    const partner = earliest[index] ?? index
    if (partner >= start) continue
    const message = messages[index]
    if (message?.role === 'tool') {
      const callMessage = messages[partner]
      const name = callMessage?.role === 'assistant' ? (callMessage.tool_calls ?? []).map((item) => item.name).join(', ') : '?'
      const where = index === start ? traceRef('splitStartsHere') : traceRef('splitStartsAt', { start })
      return { message: index, key: 'splitResult', params: { before, where, name, partner } }
    }
    const names = message?.role === 'assistant' ? (message.tool_calls ?? []).map((item) => item.name).join(', ') : '?'
    return { message: index, key: 'splitCall', params: { before, names, partner } }
  }
  return undefined
}

function abbreviate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

/**
 * How the tools offered for a turn differ from the turn before, as the parameters of
 * `toolsChanged`, or undefined when both offered the same names.
 */
function toolsChange(before: readonly string[], after: readonly string[], beforeMessage: number): Record<string, string | number | PhraseRef> | undefined {
  const was = new Set(before)
  const now = new Set(after)
  const added = after.filter((name) => !was.has(name))
  const dropped = before.filter((name) => !now.has(name))
  if (added.length === 0 && dropped.length === 0) return undefined
  const list = (names: readonly string[]): string | PhraseRef => (names.length === 0 ? traceRef('noTools') : names.join(', '))
  const delta =
    added.length > 0 && dropped.length > 0
      ? traceRef('toolsAddedDropped', { added: added.join(', '), dropped: dropped.join(', ') })
      : added.length > 0
        ? traceRef('toolsAdded', { names: added.join(', ') })
        : traceRef('toolsDropped', { names: dropped.join(', ') })
  return { after: list(after), message: beforeMessage, before: list(before), delta }
}

function checkCall(call: ToolCall, index: number, tools: readonly ToolSpec[] | undefined, cut = false): Anomaly[] {
  const found: Anomaly[] = []
  let argumentsUsable = true
  if (call.rawArguments !== undefined) {
    const reading = readArguments(call.rawArguments)
    if (reading.problem !== undefined) {
      argumentsUsable = false
      // A call cut by the token limit is reported once, as truncated_call.
      if (!cut) found.push(anomaly(index, 'invalid_arguments_json', 'argumentsProblem', { name: call.name, problem: reading.problemRef ?? reading.problem }))
    } else if (reading.doubleEncoded) {
      found.push(anomaly(index, 'double_encoded_arguments', 'argumentsDoubleEncoded', { name: call.name }))
    }
  }
  if (!tools) return found
  // As logged: the logging system knew no aliases or loose matching.
  const spec = resolveToolName(call.name, tools, { match: 'exact' })?.spec
  if (!spec) {
    // The words of the loop's own message (unknownToolMessage), as a phrase.
    const name = JSON.stringify(call.name)
    found.push(tools.length === 0 ? anomaly(index, 'unknown_tool', 'unknownToolNone', { name }) : anomaly(index, 'unknown_tool', 'unknownTool', { name, tools: tools.map((tool) => tool.name).join(', ') }))
    return found
  }
  // Unparseable arguments were read as {}, which would add misleading "is required" problems.
  if (!argumentsUsable) return found
  const problems = argumentProblems(spec, call.arguments).map((problem) => phraseRef('validation', problem, VALIDATION_TEXT))
  const list = problemList(problems)
  if (list) found.push(anomaly(index, 'schema_violation', 'schemaViolation', { name: call.name, problems: list }))
  return found
}

/** The validation problems joined with `; `, each a phrase of `VALIDATION_TEXT` (empty list: none). */
function problemList(problems: readonly PhraseRef[]): Phrase | PhraseRef | undefined {
  let list: Phrase | PhraseRef | undefined
  for (let i = problems.length - 1; i >= 0; i--) list = list ? tracePhrase('listSemicolon', { head: problems[i]!, tail: list }) : problems[i]
  return list
}
