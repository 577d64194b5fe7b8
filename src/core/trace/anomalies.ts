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
import { resolveToolName, unknownToolMessage, validateArguments } from '../validation'
import { stableJson } from '../util/json-walk'
import { pairedEarliest, safeTrimStart, systemHead } from '../loop/context-window'
import { readArguments } from './arguments'
import type { MessageMeta } from './importers/types'

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
  /** One sentence explaining this occurrence, naming the tool, id or field involved. */
  detail: string
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
        anomalies.push({
          message: index,
          code: 'truncated_call',
          detail: `finish_reason "${reason}": the output hit the token limit inside the call${cut.length > 1 ? 's' : ''} to ${cut.map((call) => call.name).join(', ')}, whose arguments are cut short (${abbreviate(cut[0]?.rawArguments ?? '', 60)})`,
        })
      }
      if (meta?.providerError !== undefined) anomalies.push({ message: index, code: 'provider_error', detail: `the provider reported an error: ${meta.providerError}` })
      if (meta?.refusal !== undefined) anomalies.push({ message: index, code: 'refusal', detail: `the model refused: "${abbreviate(meta.refusal, 160)}"` })
      const offered = meta?.offeredTools
      if (offered !== undefined) {
        if (lastOffered !== undefined) {
          const change = toolsChange(lastOffered.names, offered, lastOffered.message)
          if (change !== undefined) anomalies.push({ message: index, code: 'tools_changed', detail: change })
        }
        lastOffered = { names: offered, message: index }
      }
      calls.forEach((call, position) => {
        const earlier = firstUse.get(call.id)
        if (earlier && !reported.has(call.id)) {
          reported.add(call.id)
          anomalies.push({
            message: index,
            code: 'duplicate_tool_call_id',
            detail: `tool_call_id "${call.id}" (call to ${call.name}) was already used by the call to ${earlier.call.name} in message ${earlier.message}`,
          })
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
          anomalies.push({ message: index, code: 'repeated_call', detail: `${call.name} was called with the same arguments ${repeatThreshold} times in a row (${abbreviate(stableJson(call.arguments), 80)})` })
        }
      })
      if (calls.length > 0 && truncated && index < messages.length - 1) {
        anomalies.push({
          message: index,
          code: 'truncated_call_in_history',
          detail: `finish_reason "${reason}": the output was cut off at the token limit, yet its call${calls.length > 1 ? 's' : ''} to ${calls.map((call) => call.name).join(', ')} stayed in the history that followed`,
        })
      }
      return
    }
    if (message.role !== 'tool') return
    if (message.content.length > largeChars) {
      anomalies.push({ message: index, code: 'large_tool_result', detail: `the result${message.name ? ` of ${message.name}` : ''} is ${message.content.length} characters long (over ${largeChars})` })
    }
    // With a reused id, prefer the waiting call whose name the result carries.
    const candidates = waiting.get(message.tool_call_id) ?? []
    let pending = candidates.findLast((candidate) => candidate.call.name === message.name) ?? candidates.at(-1)
    if (!pending) {
      const sameName = message.name === '' ? [] : turnOpen.filter((open) => open.call.name === message.name)
      const evident = turnOpen.length === 1 ? turnOpen[0] : sameName.length === 1 ? sameName[0] : undefined
      if (evident) {
        pending = evident
        anomalies.push({
          message: index,
          code: 'mismatched_tool_call_id',
          detail: `tool_call_id "${message.tool_call_id}" matches no waiting call; it evidently answers the call to ${evident.call.name} (tool_call_id "${evident.call.id}", message ${evident.message}), the only ${turnOpen.length === 1 ? '' : `${evident.call.name} `}call of that turn still waiting`,
        })
      } else {
        const earlier = answeredBy.get(message.tool_call_id)
        anomalies.push({
          message: index,
          code: 'orphan_tool_result',
          detail:
            earlier === undefined
              ? `no earlier call has tool_call_id "${message.tool_call_id}"`
              : `the call with tool_call_id "${message.tool_call_id}" was already answered by message ${earlier}`,
        })
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
        anomalies.push({
          message: index,
          code: 'results_out_of_order',
          detail: `the result for call ${pending.position + 1} (${pending.call.name}) of message ${pending.message} comes after the result for call ${turnLastPosition + 1}; results do not follow the order of the calls`,
        })
      }
      turnLastPosition = Math.max(turnLastPosition, pending.position)
    }
    if (message.name !== '' && message.name !== pending.call.name) {
      anomalies.push({
        message: index,
        code: 'tool_name_mismatch',
        detail: `answers the call to ${pending.call.name} (tool_call_id "${pending.call.id}", message ${pending.message}) but is named ${message.name}`,
      })
    }
  })

  for (const stack of waiting.values()) {
    for (const pending of stack) {
      anomalies.push({
        message: pending.message,
        code: 'unanswered_tool_call',
        detail: `the call to ${pending.call.name} (tool_call_id "${pending.call.id}") never gets a tool message`,
      })
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
  let first: Anomaly | undefined
  let count = 0
  for (let request = 0; request <= messages.length; request++) {
    if (request < messages.length && messages[request]?.role !== 'assistant') continue
    const start = request - window
    if (start <= pinned) continue
    if (safeTrimStart(earliest, start, request) === start) continue
    count++
    if (!first) first = describeSplit(messages, earliest, start, request, window)
  }
  if (first && count > 1) first.detail += ` (${count - 1} later model call${count > 2 ? 's' : ''} would be split too)`
  return first
}

/** The anomaly for the first message of `[start, request)` whose partner falls before `start`. */
function describeSplit(messages: readonly Message[], earliest: Int32Array, start: number, request: number, window: number): Anomaly | undefined {
  const before = `keeping the last ${window} messages before ${request < messages.length ? `the model call at message ${request}` : 'the next model call'}`
  for (let index = start; index < request; index++) {
    const partner = earliest[index] ?? index
    if (partner >= start) continue
    const message = messages[index]
    if (message?.role === 'tool') {
      const callMessage = messages[partner]
      const name = callMessage?.role === 'assistant' ? (callMessage.tool_calls ?? []).map((item) => item.name).join(', ') : '?'
      const where = index === start ? 'would start the history at this tool result' : `would start the history at message ${start} and keep this tool result`
      return { message: index, code: 'history_split_by_trim', detail: `${before} ${where} and drop the call to ${name} (message ${partner}) it answers` }
    }
    const names = message?.role === 'assistant' ? (message.tool_calls ?? []).map((item) => item.name).join(', ') : '?'
    return { message: index, code: 'history_split_by_trim', detail: `${before} would keep the call to ${names} here and drop its result (message ${partner}), logged before it` }
  }
  return undefined
}

function abbreviate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

/**
 * How the tools offered for a turn differ from the turn before, as a sentence, or undefined
 * when both offered the same names.
 */
function toolsChange(before: readonly string[], after: readonly string[], beforeMessage: number): string | undefined {
  const was = new Set(before)
  const now = new Set(after)
  const added = after.filter((name) => !was.has(name))
  const dropped = before.filter((name) => !now.has(name))
  if (added.length === 0 && dropped.length === 0) return undefined
  const list = (names: readonly string[]): string => (names.length === 0 ? 'no tools' : names.join(', '))
  const delta = [added.length > 0 ? `added ${added.join(', ')}` : '', dropped.length > 0 ? `dropped ${dropped.join(', ')}` : ''].filter((part) => part !== '').join('; ')
  return `the request for this turn offers ${list(after)}, the one before (message ${beforeMessage}) offered ${list(before)} (${delta})`
}

function checkCall(call: ToolCall, index: number, tools: readonly ToolSpec[] | undefined, cut = false): Anomaly[] {
  const found: Anomaly[] = []
  let argumentsUsable = true
  if (call.rawArguments !== undefined) {
    const reading = readArguments(call.rawArguments)
    if (reading.problem !== undefined) {
      argumentsUsable = false
      // A call cut by the token limit is reported once, as truncated_call.
      if (!cut) found.push({ message: index, code: 'invalid_arguments_json', detail: `arguments of the call to ${call.name} are ${reading.problem}` })
    } else if (reading.doubleEncoded) {
      found.push({ message: index, code: 'double_encoded_arguments', detail: `arguments of the call to ${call.name} are a JSON string holding JSON` })
    }
  }
  if (!tools) return found
  // As logged: the logging system knew no aliases or loose matching.
  const spec = resolveToolName(call.name, tools, { match: 'exact' })?.spec
  if (!spec) {
    found.push({ message: index, code: 'unknown_tool', detail: unknownToolMessage(call.name, tools) })
    return found
  }
  // Unparseable arguments were read as {}, which would add misleading "is required" problems.
  if (!argumentsUsable) return found
  const problems = validateArguments(spec, call.arguments)
  if (problems.length > 0) found.push({ message: index, code: 'schema_violation', detail: `${call.name}: ${problems.join('; ')}` })
  return found
}
