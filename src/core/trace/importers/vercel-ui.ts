/**
 * The Vercel AI SDK's UI messages, as `useChat` keeps them and apps persist them. Sources:
 * AI SDK UI reference, `UIMessage` (v5+): `{id, role, metadata?, parts}` with parts `text
 * {text}`, `reasoning {text}`, `step-start` (a new model call begins), `tool-NAME` (a typed
 * tool) and `dynamic-tool {toolName}`, both with `toolCallId`, `state` (`input-streaming`,
 * `input-available`, `output-available`, `output-error`; v6 adds `approval-requested`,
 * `approval-responded`, `output-denied`), `input`, `output`, `errorText`, and `source-url`,
 * `source-document`, `file`, `data-*`; and the v4 `Message`: `{id, role, content,
 * toolInvocations?: [{state: 'partial-call' | 'call' | 'result', step?, toolCallId, toolName,
 * args, result?}], parts?}` where parts mirror the invocations as `tool-invocation
 * {toolInvocation}` beside `text`, `reasoning` and `step-start`.
 *
 * Canonical form: each model call of an assistant message (split at `step-start`, or in v4 by
 * the invocation's `step`) becomes an assistant message with its text and calls, followed by
 * one tool message per call that has an output (`output-error` / `output-denied` as an error
 * result). A call still streaming or waiting has no result. When v4 gives both `parts` and
 * `toolInvocations`, only `parts` is read, so a call is counted once.
 *
 * Pure.
 */
import type { AssistantMessage, JsonValue, Message, ToolCall, ToolMessage } from '../../messages'
import { isJsonObject, readArguments } from '../arguments'
import { BadField, child, fillToolNames } from '../openai-log'
import { asText, expectArray, expectObject, expectString, type JsonObject } from './shared'
import { expectedGot, orList } from '../trace-text'

/** True for a part list that only UI messages have (typed tool parts, step boundaries, v4 invocations). */
function isUiPart(part: JsonValue): boolean {
  if (!isJsonObject(part)) return false
  const type = part['type']
  if (typeof type !== 'string') return false
  return type === 'step-start' || type === 'dynamic-tool' || type === 'tool-invocation' || (type.startsWith('tool-') && 'toolCallId' in part) || (type === 'text' && typeof part['text'] === 'string')
}

/** True when a messages list (first `limit` entries) looks like AI SDK UI messages: v5 `parts` or v4 `toolInvocations`. */
export function isUiMessageList(items: readonly JsonValue[], limit = 50): boolean {
  let marked = false
  for (const item of items.slice(0, limit)) {
    if (!isJsonObject(item) || typeof item['role'] !== 'string') return false
    if (Array.isArray(item['toolInvocations'])) marked = true
    const parts = item['parts']
    if (Array.isArray(parts) && parts.some(isUiPart)) marked = true
  }
  return marked
}

interface Turn {
  texts: string[]
  calls: ToolCall[]
  results: ToolMessage[]
}

/** A call from a v5 tool part or a v4 invocation, and its result when it has one. */
function readInvocation(part: JsonObject, name: string, path: string, input: JsonValue | undefined): { call: ToolCall; result?: ToolMessage } {
  const id = expectString(part['toolCallId'], child(path, 'toolCallId'))
  const call: ToolCall =
    typeof input === 'string' ? { id, name, arguments: readArguments(input).arguments, rawArguments: input } : { id, name, arguments: isJsonObject(input) ? input : {} }
  const state = part['state']
  if (state === 'output-available' || state === 'result') return { call, result: { role: 'tool', tool_call_id: id, name, content: asText(part['output'] ?? part['result']) } }
  if (state === 'output-error') return { call, result: { role: 'tool', tool_call_id: id, name, content: asText(part['errorText'] ?? 'error'), isError: true } }
  if (state === 'output-denied') {
    const approval = isJsonObject(part['approval']) ? part['approval'] : {}
    return { call, result: { role: 'tool', tool_call_id: id, name, content: asText(approval['reason'] ?? 'the user denied this call'), isError: true } }
  }
  // input-streaming, input-available, call, partial-call, approval-*: still waiting for a result.
  return { call }
}

/** Reads one part into the open turn; returns true when the part starts a new model call. */
function readPart(part: JsonObject, path: string, turn: Turn): void {
  const type = typeof part['type'] === 'string' ? part['type'] : ''
  if (type === 'text') {
    turn.texts.push(asText(part['text']))
    return
  }
  if (type === 'dynamic-tool' || (type.startsWith('tool-') && type !== 'tool-invocation')) {
    const name = type === 'dynamic-tool' ? expectString(part['toolName'], child(path, 'toolName')) : type.slice('tool-'.length)
    const { call, result } = readInvocation(part, name, path, part['input'])
    turn.calls.push(call)
    if (result) turn.results.push(result)
    return
  }
  if (type === 'tool-invocation') {
    const invocation = expectObject(part['toolInvocation'], child(path, 'toolInvocation'), 'expToolInvocation')
    const invocationPath = child(path, 'toolInvocation')
    const { call, result } = readInvocation(invocation, expectString(invocation['toolName'], child(invocationPath, 'toolName')), invocationPath, invocation['args'])
    turn.calls.push(call)
    if (result) turn.results.push(result)
    return
  }
  if (type === 'file') turn.texts.push('[file]')
  // reasoning, source-*, data-*: not part of the tool wiring.
}

/** The step a part belongs to (v4 `toolInvocation.step`), when it says. */
function stepOf(part: JsonObject): number | undefined {
  const invocation = isJsonObject(part['toolInvocation']) ? part['toolInvocation'] : part
  return typeof invocation['step'] === 'number' ? invocation['step'] : undefined
}

function flush(turn: Turn, out: Message[]): void {
  if (turn.texts.length === 0 && turn.calls.length === 0) return
  const text = turn.texts.join('')
  const assistant: AssistantMessage = { role: 'assistant', content: text === '' ? null : text }
  if (turn.calls.length > 0) assistant.tool_calls = turn.calls
  out.push(assistant, ...turn.results)
}

function readAssistantParts(parts: readonly JsonValue[], path: string, out: Message[]): void {
  let turn: Turn = { texts: [], calls: [], results: [] }
  let step: number | undefined
  parts.forEach((entry, index) => {
    const partPath = child(path, index)
    const part = expectObject(entry, partPath, 'expMessagePart')
    const partStep = stepOf(part)
    // A new model call starts at step-start, at a new v4 step number, or with text after a call's result.
    const boundary =
      part['type'] === 'step-start' || (partStep !== undefined && step !== undefined && partStep !== step) || (part['type'] === 'text' && turn.results.length > 0 && turn.results.length === turn.calls.length)
    if (boundary) {
      flush(turn, out)
      turn = { texts: [], calls: [], results: [] }
    }
    if (partStep !== undefined) step = partStep
    readPart(part, partPath, turn)
  })
  flush(turn, out)
}

/** v4 `toolInvocations` without parts: one turn per `step`, the message text as the last turn's answer. */
function readInvocations(message: JsonObject, path: string, out: Message[]): void {
  const invocations = expectArray(message['toolInvocations'], child(path, 'toolInvocations'), 'expToolInvocations')
  const steps = new Map<number, Turn>()
  invocations.forEach((entry, index) => {
    const invocationPath = child(child(path, 'toolInvocations'), index)
    const invocation = expectObject(entry, invocationPath, 'expToolInvocation')
    const step = stepOf(invocation) ?? 0
    const turn = steps.get(step) ?? { texts: [], calls: [], results: [] }
    const { call, result } = readInvocation(invocation, expectString(invocation['toolName'], child(invocationPath, 'toolName')), invocationPath, invocation['args'])
    turn.calls.push(call)
    if (result) turn.results.push(result)
    steps.set(step, turn)
  })
  const ordered = [...steps].sort(([a], [b]) => a - b).map(([, turn]) => turn)
  const text = typeof message['content'] === 'string' ? message['content'] : ''
  const answered = ordered.every((turn) => turn.results.length === turn.calls.length)
  // With every call answered, the text is the answer that followed; otherwise it came with the calls.
  if (text !== '' && (answered || ordered.length === 0)) ordered.push({ texts: [text], calls: [], results: [] })
  else if (text !== '') ordered[ordered.length - 1]?.texts.push(text)
  for (const turn of ordered) flush(turn, out)
}

/**
 * Convert AI SDK UI messages (v5 parts or v4 toolInvocations, at `path`) into canonical messages.
 *
 * @throws BadField for a message or part of the wrong shape.
 */
export function readUiMessages(value: JsonValue | undefined, path: string): Message[] {
  const out: Message[] = []
  expectArray(value, path, 'expUiMessages').forEach((entry, index) => {
    const messagePath = child(path, index)
    const message = expectObject(entry, messagePath, 'expUiMessage')
    const role = message['role']
    const parts = Array.isArray(message['parts']) ? message['parts'] : undefined
    const partsText = (): string =>
      (parts ?? [])
        .filter((part): part is JsonObject => isJsonObject(part) && part['type'] === 'text')
        .map((part) => asText(part['text']))
        .join('')
    if (role === 'system' || role === 'user') {
      out.push({ role, content: parts ? partsText() : asText(message['content']) })
      return
    }
    if (role !== 'assistant') throw new BadField(child(messagePath, 'role'), expectedGot(orList(['"system"', '"user"', '"assistant"']), JSON.stringify(role ?? null)))
    const hasPartCalls = parts?.some((part) => isJsonObject(part) && typeof part['type'] === 'string' && (part['type'].startsWith('tool-') || part['type'] === 'dynamic-tool')) ?? false
    if (parts && (hasPartCalls || !Array.isArray(message['toolInvocations']))) readAssistantParts(parts, child(messagePath, 'parts'), out)
    else if (Array.isArray(message['toolInvocations'])) readInvocations(message, messagePath, out)
    else out.push({ role: 'assistant', content: asText(message['content']) || null })
  })
  fillToolNames(out)
  return out
}
