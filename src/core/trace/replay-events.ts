/**
 * Rebuilding the loop's phases from a logged conversation, as the same `SessionEvent`s the
 * live engine emits, so the timeline and the fold show a replay exactly like a run.
 *
 * Pure and deterministic: logs carry no timing, so every `at` and `durationMs` is 0.
 */
import type { AnomalyFlag, SessionEvent, Verdict } from '../loop/events'
import type { AssistantMessage, Message, ToolCall } from '../messages'
import type { Span } from '../protocols/types'
import type { ToolSpec } from '../tools/types'
import { resolveTool, unknownToolMessage, validateArguments } from '../validation'
import { findAnomalies, type Anomaly } from './anomalies'
import { readArguments, type ArgumentsReading } from './arguments'
import type { MessageMeta } from './importers/types'

/** Protocol id recorded on replayed events: the logs replayed here are OpenAI native messages. */
export const REPLAY_PROTOCOL = 'openai'

/** What `replayEvents` needs from a conversation (an `ImportedConversation` fits). */
export interface ReplayableConversation {
  messages: readonly Message[]
  /** Tool definitions carried by the log; used when `options.tools` is not given. */
  tools?: readonly ToolSpec[]
  /** Per-message facts from the log (finish reasons), for the anomaly checks. */
  messageMeta?: Readonly<Record<number, MessageMeta>>
}

/** Options for `replayEvents`. */
export interface ReplayOptions {
  /** Tool definitions to validate against (e.g. from `--tools`); overrides `conversation.tools`. */
  tools?: readonly ToolSpec[]
  /** Anomalies already computed for these messages; computed with `findAnomalies` when absent. */
  anomalies?: readonly Anomaly[]
}

/** Codes that are about a call's fit with its tool, shown on the validate phase when there is one. */
const VALIDATION_CODES: ReadonlySet<string> = new Set(['unknown_tool', 'schema_violation'])

/**
 * Reconstruct the session log of a logged conversation. Pure.
 *
 * Events, with `seq` from 0:
 * - `session.started` (source `replay`, protocol `openai`) with the messages before the first assistant turn;
 * - per assistant turn: `model.responded` (the assistant message in OpenAI wire shape, pretty-printed
 *   JSON, `arguments` as strings), `parse.completed` (calls with spans into that raw text),
 *   `validate.completed` when tools are known and the turn has calls, one `tool.finished` per tool
 *   message of the turn, and `backfill.completed` with the assistant message and every message after
 *   it up to the next assistant turn;
 * - `loop.stopped`: `error` with the provider's message when the log says the last turn failed, else
 *   `final_answer` when the last assistant turn has no calls, otherwise `error`.
 *
 * Each anomaly is attached (`anomalies`) to the event that shows its message: leading messages →
 * `session.started`; a call's fit with its tool → `validate.completed` (else `parse.completed`);
 * other assistant anomalies → `parse.completed`; a tool message → its `tool.finished`; a later
 * user or system message → the turn's `backfill.completed`.
 */
export function replayEvents(conversation: ReplayableConversation, options: ReplayOptions = {}): SessionEvent[] {
  const { messages } = conversation
  const tools = options.tools ?? conversation.tools
  const flags = groupAnomalies(options.anomalies ?? findAnomalies(messages, tools, conversation.messageMeta ? { messageMeta: conversation.messageMeta } : {}))
  const flagsAt = (index: number, keep: (flag: AnomalyFlag) => boolean = () => true): { anomalies?: AnomalyFlag[] } => {
    const found = (flags.get(index) ?? []).filter(keep)
    return found.length > 0 ? { anomalies: found } : {}
  }

  const turns = messages.flatMap((message, index) => (message.role === 'assistant' ? [{ start: index, assistant: message }] : []))
  const firstTurn = turns[0]?.start ?? messages.length
  const events: SessionEvent[] = []
  let seq = 0

  const leading = messages.slice(0, firstTurn)
  events.push({
    type: 'session.started',
    seq: seq++,
    at: 0,
    source: 'replay',
    protocol: REPLAY_PROTOCOL,
    tools: [...(tools ?? [])],
    messages: [...leading],
    maxSteps: Math.max(1, turns.length),
    ...mergeFlags(leading.map((_, index) => flagsAt(index))),
  })

  turns.forEach(({ start, assistant }, step) => {
    const end = turns[step + 1]?.start ?? messages.length
    const calls = assistant.tool_calls ?? []
    const wire = toWire(assistant)
    const validating = tools !== undefined && tools.length > 0 && calls.length > 0

    const recorded = conversation.messageMeta?.[start]?.recorded
    events.push({ type: 'model.responded', seq: seq++, at: 0, step, raw: wire.raw, durationMs: 0, ...(recorded ? { recorded } : {}) })
    const readings = calls.map((call): Partial<ArgumentsReading> => (call.rawArguments === undefined ? {} : readArguments(call.rawArguments)))
    events.push({
      type: 'parse.completed',
      seq: seq++,
      at: 0,
      protocol: REPLAY_PROTOCOL,
      calls: calls.map((call, index) => ({ ...call, spans: wire.spans[index] ?? { call: { start: 0, end: 0 } } })),
      // Trimmed like the openai protocol's parse, so a replayed turn and a live one fold alike.
      text: (assistant.content ?? '').trim(),
      repairs: calls.flatMap((call, index) =>
        readings[index]?.doubleEncoded
          ? [{ code: 'double_encoded', message: `decoded the arguments of ${call.name} twice: they were a JSON string holding JSON`, span: wire.spans[index]?.arguments }]
          : [],
      ),
      errors: calls.flatMap((call, index) => {
        const problem = readings[index]?.problem
        return problem === undefined ? [] : [{ code: 'invalid_json', message: `The arguments of ${call.name} are ${problem}.`, span: wire.spans[index]?.arguments }]
      }),
      ...flagsAt(start, (flag) => !validating || !VALIDATION_CODES.has(flag.code)),
    })
    if (validating) {
      events.push({
        type: 'validate.completed',
        seq: seq++,
        at: 0,
        verdicts: calls.map((call, index) => verdict(call, readings[index]?.problem, tools)),
        ...flagsAt(start, (flag) => VALIDATION_CODES.has(flag.code)),
      })
    }
    const names = new Map(calls.map((call) => [call.id, call.name]))
    for (let index = start + 1; index < end; index++) {
      const message = messages[index]
      if (message?.role !== 'tool') continue
      events.push({
        type: 'tool.finished',
        seq: seq++,
        at: 0,
        callId: message.tool_call_id,
        name: message.name || names.get(message.tool_call_id) || '',
        ...(message.isError ? { error: message.content } : { result: message.content }),
        durationMs: 0,
        timedOut: false,
        truncated: false,
        ...flagsAt(index),
      })
    }
    const appended = messages.slice(start, end)
    events.push({
      type: 'backfill.completed',
      seq: seq++,
      at: 0,
      messages: [...appended],
      ...mergeFlags(appended.map((message, offset) => (message.role === 'user' || message.role === 'system' ? flagsAt(start + offset) : {}))),
    })
  })

  const last = turns[turns.length - 1]?.assistant
  const lastCalls = last?.tool_calls ?? []
  const failure = conversation.messageMeta?.[turns[turns.length - 1]?.start ?? -1]?.providerError
  if (failure !== undefined) {
    // The provider ended the turn with an error: that, not the missing answer, is why the loop stopped.
    events.push({ type: 'loop.stopped', seq: seq++, at: 0, reason: 'error', detail: `provider error: ${failure}` })
  } else if (last && lastCalls.length === 0) {
    events.push({ type: 'loop.stopped', seq: seq++, at: 0, reason: 'final_answer' })
  } else {
    const detail = last
      ? `the log ends after the call${lastCalls.length > 1 ? 's' : ''} to ${lastCalls.map((call) => call.name).join(', ')}, without a final answer`
      : 'the log has no assistant turn'
    events.push({ type: 'loop.stopped', seq: seq++, at: 0, reason: 'error', detail })
  }
  return events
}

function verdict(call: ToolCall, argumentsProblem: string | undefined, tools: readonly ToolSpec[]): Verdict {
  const spec = resolveTool(call.name, tools)
  const problems = !spec
    ? [unknownToolMessage(call.name, tools)]
    : argumentsProblem !== undefined
      ? [`arguments are ${argumentsProblem}`]
      : validateArguments(spec, call.arguments)
  return { callId: call.id, name: call.name, ok: problems.length === 0, problems }
}

function groupAnomalies(anomalies: readonly Anomaly[]): Map<number, AnomalyFlag[]> {
  const byMessage = new Map<number, AnomalyFlag[]>()
  for (const anomaly of anomalies) {
    const list = byMessage.get(anomaly.message) ?? []
    list.push({ code: anomaly.code, detail: anomaly.detail })
    byMessage.set(anomaly.message, list)
  }
  return byMessage
}

function mergeFlags(parts: readonly { anomalies?: AnomalyFlag[] }[]): { anomalies?: AnomalyFlag[] } {
  const all = parts.flatMap((part) => part.anomalies ?? [])
  return all.length > 0 ? { anomalies: all } : {}
}

/** Where one call sits in the serialised assistant message. */
interface CallSpans {
  /** The whole call object, braces included. */
  call: Span
  /** The name's characters, inside the quotes. */
  name?: Span
  /** The `arguments` string's characters as escaped in the raw text, inside the quotes. */
  arguments?: Span
}

/**
 * Serialises an assistant message the way the Chat Completions API returns it (pretty-printed
 * so the raw view is readable) and locates each call in the text. Searching for `"key": value`
 * from a moving cursor is unambiguous: inside a JSON string every quote is escaped, so the
 * pattern can only match the real key.
 */
function toWire(message: AssistantMessage): { raw: string; spans: CallSpans[] } {
  const calls = message.tool_calls ?? []
  const wireCalls = calls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.rawArguments ?? JSON.stringify(call.arguments) },
  }))
  const raw = JSON.stringify({ role: 'assistant', content: message.content, ...(calls.length > 0 ? { tool_calls: wireCalls } : {}) }, null, 2)
  const spans: CallSpans[] = []
  let cursor = raw.indexOf('"tool_calls": [')
  for (const wireCall of wireCalls) {
    const idAt = raw.indexOf(`"id": ${JSON.stringify(wireCall.id)}`, cursor)
    const nameText = `"name": ${JSON.stringify(wireCall.function.name)}`
    const nameAt = raw.indexOf(nameText, idAt)
    const argumentsText = `"arguments": ${JSON.stringify(wireCall.function.arguments)}`
    const argumentsAt = raw.indexOf(argumentsText, nameAt)
    const functionEnd = raw.indexOf('}', argumentsAt + argumentsText.length)
    const callEnd = raw.indexOf('}', functionEnd + 1) + 1
    spans.push({
      call: { start: raw.lastIndexOf('{', idAt), end: callEnd },
      name: { start: nameAt + '"name": "'.length, end: nameAt + nameText.length - 1 },
      arguments: { start: argumentsAt + '"arguments": "'.length, end: argumentsAt + argumentsText.length - 1 },
    })
    cursor = callEnd
  }
  return { raw, spans }
}
