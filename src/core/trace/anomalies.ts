/**
 * The anomaly checks run on a replayed conversation: wiring mistakes between tool calls
 * and their results, arguments that are not JSON, and (when tool definitions are known)
 * calls to unknown tools or with arguments that break the tool's schema.
 *
 * Pure.
 */
import type { Message, ToolCall } from '../messages'
import type { ToolSpec } from '../tools/types'
import { resolveTool, unknownToolMessage, validateArguments } from '../validation'
import { readArguments } from './arguments'

/** Anomaly codes. Stable: they are shown to users, printed by the CLI and matched by tests. */
export const ANOMALY_CODES = [
  /** A `tool_call_id` already used by an earlier call in the same conversation (one per reused id). */
  'duplicate_tool_call_id',
  /** A tool message whose `tool_call_id` answers no call that is still waiting for a result. */
  'orphan_tool_result',
  /** A tool call that no later tool message answers. */
  'unanswered_tool_call',
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

interface PendingCall {
  call: ToolCall
  message: number
}

/**
 * Find anomalies in a conversation. Pure.
 *
 * Each tool message is paired with the most recent call with the same id that is still
 * unanswered, so a reused id is reported once, as `duplicate_tool_call_id` on the message
 * where it is first reused, and does not also show up as orphan or unanswered.
 *
 * @param tools - Tool definitions; without them `unknown_tool` and `schema_violation` are not checked.
 * @returns Anomalies ordered by message index (ties in the order found).
 */
export function findAnomalies(messages: readonly Message[], tools?: readonly ToolSpec[]): Anomaly[] {
  const anomalies: Anomaly[] = []
  const firstUse = new Map<string, PendingCall>()
  const reported = new Set<string>()
  const waiting = new Map<string, PendingCall[]>()
  const answeredBy = new Map<string, number>()

  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) {
        const earlier = firstUse.get(call.id)
        if (earlier && !reported.has(call.id)) {
          reported.add(call.id)
          anomalies.push({
            message: index,
            code: 'duplicate_tool_call_id',
            detail: `tool_call_id "${call.id}" (call to ${call.name}) was already used by the call to ${earlier.call.name} in message ${earlier.message}`,
          })
        }
        if (!earlier) firstUse.set(call.id, { call, message: index })
        const stack = waiting.get(call.id) ?? []
        stack.push({ call, message: index })
        waiting.set(call.id, stack)
        anomalies.push(...checkCall(call, index, tools))
      }
      return
    }
    if (message.role !== 'tool') return
    const pending = waiting.get(message.tool_call_id)?.pop()
    if (!pending) {
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
    answeredBy.set(message.tool_call_id, index)
    if (message.name !== '' && message.name !== pending.call.name) {
      anomalies.push({
        message: index,
        code: 'tool_name_mismatch',
        detail: `answers the call to ${pending.call.name} (tool_call_id "${message.tool_call_id}", message ${pending.message}) but is named ${message.name}`,
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
  // Stable sort: unanswered calls were collected last but belong at their assistant message.
  return anomalies.sort((a, b) => a.message - b.message)
}

function checkCall(call: ToolCall, index: number, tools: readonly ToolSpec[] | undefined): Anomaly[] {
  const found: Anomaly[] = []
  let argumentsUsable = true
  if (call.rawArguments !== undefined) {
    const reading = readArguments(call.rawArguments)
    if (reading.problem !== undefined) {
      argumentsUsable = false
      found.push({ message: index, code: 'invalid_arguments_json', detail: `arguments of the call to ${call.name} are ${reading.problem}` })
    } else if (reading.doubleEncoded) {
      found.push({ message: index, code: 'double_encoded_arguments', detail: `arguments of the call to ${call.name} are a JSON string holding JSON` })
    }
  }
  if (!tools) return found
  const spec = resolveTool(call.name, tools)
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
