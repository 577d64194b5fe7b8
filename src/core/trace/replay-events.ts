/**
 * Rebuilding the loop's phases from a logged conversation, as the same `SessionEvent`s the
 * live engine emits, so the timeline and the fold show a replay exactly like a run. The logged
 * data goes through the engine's own phase builders (`core/loop/phases.ts`) under the
 * `as-logged` validation policy: the assistant message is serialised as OpenAI wire JSON and
 * parsed by the `openai` protocol (its calls, spans, repairs and errors), calls are validated by
 * exact name against the tools as written, and the backfill is the log's own messages.
 *
 * Pure and deterministic: logs carry no timing, so every `at` and `durationMs` is 0.
 */
import {
  apply,
  backfillTurn,
  initialLoopState,
  loggedToolFinished,
  modelResponded,
  parseTurn,
  stopAtLogEnd,
  validateTurn,
  type AnomalyFlag,
  type LoopState,
  type NewSessionEvent,
  type SessionEvent,
} from '../loop/index'
import type { AssistantMessage, Message } from '../messages'
import { toOpenAIAssistant, writeOpenAIAssistant } from '../wire/index'
import type { ToolSpec } from '../tools/types'
import { findAnomalies, type Anomaly } from './anomalies'
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
 * Reconstruct the session log of a logged conversation. Pure; O(messages + calls).
 *
 * Events, with `seq` from 0:
 * - `session.started` (source `replay`, protocol `openai`, validation policy `as-logged`) with the
 *   messages before the first assistant turn;
 * - per assistant turn: `model.responded` (the assistant message in OpenAI wire shape, pretty-printed
 *   JSON, `arguments` as strings), `parse.completed` (the `openai` protocol's parse of that text,
 *   tool_call_ids as logged), `validate.completed` when tools are known and the parse has calls,
 *   one `tool.finished` per tool message of the turn, and `backfill.completed` with the assistant
 *   message and every message after it up to the next assistant turn;
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
  let state: LoopState = initialLoopState
  const append = (event: NewSessionEvent, anomalies: { anomalies?: AnomalyFlag[] } = {}): void => {
    const full = { ...event, seq: events.length, at: 0, ...anomalies } as SessionEvent
    events.push(full)
    state = apply(state, full)
  }

  const leading = messages.slice(0, firstTurn)
  append(
    {
      type: 'session.started',
      source: 'replay',
      protocol: REPLAY_PROTOCOL,
      tools: [...(tools ?? [])],
      messages: [...leading],
      maxSteps: Math.max(1, turns.length),
      validationPolicy: 'as-logged',
    },
    mergeFlags(leading.map((_, index) => flagsAt(index))),
  )

  turns.forEach(({ start, assistant }, step) => {
    const end = turns[step + 1]?.start ?? messages.length
    // A log records the conversation, not how a request was cut or routed: the whole of it was sent.
    // The response as the log recorded it (a stream's chunks, a body), shown beside the wire shape.
    const recorded = conversation.messageMeta?.[start]?.recorded
    const finishReason = conversation.messageMeta?.[start]?.finishReason
    append({ ...modelResponded({ step: state.step }, wireText(assistant), 0, undefined, finishReason), ...(recorded ? { recorded } : {}) })
    const parse = parseTurn(state)
    const validating = tools !== undefined && tools.length > 0 && parse.calls.length > 0
    append(parse, flagsAt(start, (flag) => !validating || !VALIDATION_CODES.has(flag.code)))
    if (validating) append(validateTurn(state), flagsAt(start, (flag) => VALIDATION_CODES.has(flag.code)))
    const names = new Map((assistant.tool_calls ?? []).map((call) => [call.id, call.name]))
    for (let index = start + 1; index < end; index++) {
      const message = messages[index]
      if (message?.role !== 'tool') continue
      append(loggedToolFinished(message, message.name || names.get(message.tool_call_id) || ''), flagsAt(index))
    }
    const appended = messages.slice(start, end)
    append(
      backfillTurn(state, appended),
      mergeFlags(appended.map((message, offset) => (message.role === 'user' || message.role === 'system' ? flagsAt(start + offset) : {}))),
    )
  })

  const last = turns[turns.length - 1]
  const failure = conversation.messageMeta?.[last?.start ?? -1]?.providerError
  append(stopAtLogEnd(state, (last?.assistant.tool_calls ?? []).map((call) => call.name), failure))
  return events
}

/** The assistant message as the Chat Completions API returns it, `arguments` as the logged string. */
function wireText(message: AssistantMessage): string {
  return writeOpenAIAssistant(toOpenAIAssistant(message.content, message.tool_calls))
}

function groupAnomalies(anomalies: readonly Anomaly[]): Map<number, AnomalyFlag[]> {
  const byMessage = new Map<number, AnomalyFlag[]>()
  for (const anomaly of anomalies) {
    const list = byMessage.get(anomaly.message) ?? []
    list.push({ code: anomaly.code, detail: anomaly.detail, ...(anomaly.phrase ? { phrase: anomaly.phrase } : {}) })
    byMessage.set(anomaly.message, list)
  }
  return byMessage
}

function mergeFlags(parts: readonly { anomalies?: AnomalyFlag[] }[]): { anomalies?: AnomalyFlag[] } {
  const all = parts.flatMap((part) => part.anomalies ?? [])
  return all.length > 0 ? { anomalies: all } : {}
}
