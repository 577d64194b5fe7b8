/**
 * `vercel-ai`: the Vercel AI SDK's message and step formats. Source: AI SDK Core reference,
 * `ModelMessage` (v5; `CoreMessage` in v4) and `generateText`'s result:
 * - messages `{role: 'system', content: string}`, `{role: 'user' | 'assistant', content: string | parts}`,
 *   `{role: 'tool', content: parts}`; parts `text`, `tool-call {toolCallId, toolName, input}`
 *   (v4: `args`), `tool-result {toolCallId, toolName, output}` where `output` is typed
 *   (`{type: 'text' | 'json' | 'error-text' | 'error-json' | 'content', value}`; v4: `result`
 *   with `isError`), `reasoning`, `image`, `file`;
 * - a result `{steps: [{text, toolCalls, toolResults, finishReason, content?}], response: {messages}}`,
 *   optionally with the prompt beside it (`system`, `prompt` or `messages`).
 *
 * Also UI messages (`useChat`, v5 `parts` and v4 `toolInvocations`), see `vercel-ui.ts`.
 *
 * Shapes read: a messages array, `{messages}`, `{response: {messages}}`, a result with
 * `steps`, a list of those, or JSONL. Tool results take the `toolName` they carry.
 *
 * Pure.
 */
import type { AssistantMessage, JsonValue, Message, ToolCall, ToolMessage } from '../../messages'
import { isJsonObject, readArguments } from '../arguments'
import { BadField, child, fillToolNames } from '../openai-log'
import { arrayAt, asText, conversationOf, expectArray, expectObject, expectString, firstRecord, keyList, labelled, messageStyle, naming, objectAt, plural, recordsOf, scalars, type JsonObject } from './shared'
import type { Importer, ImportStep, LogDocument, MessageMeta } from './types'
import { isUiMessageList, readUiMessages } from './vercel-ui'
import { expectedGot, orList, recognised, tracePhrase } from '../trace-text'
import type { Phrase } from '../../util/phrase'

const OUTPUT_TYPES = new Set(['text', 'json', 'error-text', 'error-json', 'content', 'execution-denied'])

/** A tool result's text and error flag from v5 typed `output`, a raw `output`, or v4 `result` + `isError`. */
function resultOf(part: JsonObject): { content: string; isError: boolean } {
  const output = part['output']
  if (isJsonObject(output) && typeof output['type'] === 'string' && OUTPUT_TYPES.has(output['type'])) {
    const type = output['type']
    const value = output['value']
    const content =
      type === 'content' && Array.isArray(value) ? value.map((item) => (isJsonObject(item) && typeof item['text'] === 'string' ? item['text'] : `[${isJsonObject(item) ? asText(item['type']) : 'part'}]`)).join('') : type === 'execution-denied' ? asText(output['reason'] ?? 'execution denied') : asText(value)
    return { content, isError: type.startsWith('error') || type === 'execution-denied' }
  }
  return { content: asText(output ?? part['result']), isError: part['isError'] === true }
}

function toolCallOf(part: JsonObject, path: string): ToolCall {
  const id = expectString(part['toolCallId'], child(path, 'toolCallId'))
  const name = expectString(part['toolName'], child(path, 'toolName'))
  const input = part['input'] ?? part['args']
  if (typeof input === 'string') return { id, name, arguments: readArguments(input).arguments, rawArguments: input }
  return { id, name, arguments: isJsonObject(input) ? input : {} }
}

function toolMessageOf(part: JsonObject, path: string): ToolMessage {
  const { content, isError } = resultOf(part)
  return { role: 'tool', tool_call_id: expectString(part['toolCallId'], child(path, 'toolCallId')), name: typeof part['toolName'] === 'string' ? part['toolName'] : '', content, ...(isError ? { isError: true } : {}) }
}

function textOfParts(parts: readonly JsonValue[]): string[] {
  return parts.flatMap((part) => {
    if (!isJsonObject(part)) return []
    if (part['type'] === 'text' && typeof part['text'] === 'string') return [part['text']]
    if (part['type'] === 'image' || part['type'] === 'file') return [`[${part['type']}]`]
    return []
  })
}

/**
 * Convert AI SDK messages (at `path`) into canonical messages.
 *
 * @throws BadField for a message or part of the wrong shape.
 */
export function readVercelMessages(value: JsonValue | undefined, path: string): Message[] {
  const out: Message[] = []
  expectArray(value, path, 'expMessages').forEach((entry, index) => {
    const messagePath = child(path, index)
    const message = expectObject(entry, messagePath, 'expMessage')
    const role = message['role']
    const content = message['content']
    const contentPath = child(messagePath, 'content')
    if (typeof content === 'string') {
      if (role === 'system' || role === 'user') out.push({ role, content })
      else if (role === 'assistant') out.push({ role, content })
      else throw new BadField(child(messagePath, 'role'), expectedGot(tracePhrase('expForText', { roles: orList(['"system"', '"user"', '"assistant"']) }), JSON.stringify(role ?? null)))
      return
    }
    const parts = expectArray(content, contentPath, 'expStringOrParts')
    if (role === 'user' || role === 'system') {
      out.push({ role, content: textOfParts(parts).join('') })
      return
    }
    if (role !== 'assistant' && role !== 'tool') throw new BadField(child(messagePath, 'role'), expectedGot(orList(['"system"', '"user"', '"assistant"', '"tool"']), JSON.stringify(role ?? null)))
    const calls: ToolCall[] = []
    const results: ToolMessage[] = []
    parts.forEach((part, partIndex) => {
      const partPath = child(contentPath, partIndex)
      const item = expectObject(part, partPath, 'expContentPart')
      if (item['type'] === 'tool-call') calls.push(toolCallOf(item, partPath))
      // Results inside an assistant message are provider-executed tools; they still answer a call.
      if (item['type'] === 'tool-result') results.push(toolMessageOf(item, partPath))
    })
    if (role === 'assistant') {
      const texts = textOfParts(parts)
      const assistant: AssistantMessage = { role: 'assistant', content: texts.length > 0 ? texts.join('') : null }
      if (calls.length > 0) assistant.tool_calls = calls
      out.push(assistant)
    }
    out.push(...results)
  })
  fillToolNames(out)
  return out
}

/** The prompt beside a result: `system`, then `prompt` (text) or `messages`. */
function readPrompt(record: JsonObject, path: string): Message[] {
  const out: Message[] = []
  if (typeof record['system'] === 'string') out.push({ role: 'system', content: record['system'] })
  if (typeof record['prompt'] === 'string') out.push({ role: 'user', content: record['prompt'] })
  else if (Array.isArray(record['prompt'])) out.push(...readVercelMessages(record['prompt'], child(path, 'prompt')))
  if (Array.isArray(record['messages'])) out.push(...readVercelMessages(record['messages'], child(path, 'messages')))
  return out
}

function readSteps(steps: readonly JsonValue[], path: string, out: Message[], meta: Map<number, MessageMeta>): void {
  steps.forEach((entry, index) => {
    const stepPath = child(path, index)
    const step = expectObject(entry, stepPath, 'expStep')
    let calls: ToolCall[]
    let results: ToolMessage[]
    let text = typeof step['text'] === 'string' ? step['text'] : ''
    const toolCalls = arrayAt(step, 'toolCalls')
    if (toolCalls || !Array.isArray(step['content'])) {
      calls = (toolCalls ?? []).map((call, at) => toolCallOf(expectObject(call, child(child(stepPath, 'toolCalls'), at), 'expToolCall'), child(child(stepPath, 'toolCalls'), at)))
      results = (arrayAt(step, 'toolResults') ?? []).map((result, at) => toolMessageOf(expectObject(result, child(child(stepPath, 'toolResults'), at), 'expToolResult'), child(child(stepPath, 'toolResults'), at)))
    } else {
      const parts = step['content']
      calls = []
      results = []
      parts.forEach((part, at) => {
        const partPath = child(child(stepPath, 'content'), at)
        const item = expectObject(part, partPath, 'expContentPart')
        if (item['type'] === 'tool-call') calls.push(toolCallOf(item, partPath))
        if (item['type'] === 'tool-result' || item['type'] === 'tool-error') results.push(toolMessageOf(item['type'] === 'tool-error' ? { ...item, output: { type: 'error-text', value: asText(item['error']) } } : item, partPath))
      })
      if (text === '') text = textOfParts(parts).join('')
    }
    const assistant: AssistantMessage = { role: 'assistant', content: text === '' ? null : text }
    if (calls.length > 0) assistant.tool_calls = calls
    out.push(assistant)
    if (typeof step['finishReason'] === 'string') meta.set(out.length - 1, { finishReason: step['finishReason'] })
    out.push(...results)
  })
}

/** Model messages or UI messages, whichever the list holds. */
function readAnyMessages(value: JsonValue[], path: string): Message[] {
  return isUiMessageList(value) ? readUiMessages(value, path) : readVercelMessages(value, path)
}

function readRecord(record: JsonValue, path: string, index: number) {
  if (Array.isArray(record)) return conversationOf({ id: String(index), ...labelled(tracePhrase('labelConversation', { index })), messages: readAnyMessages(record, path), path, meta: {} })
  const object = expectObject(record, path, 'expAiSdkRecord')
  const uiMessages = arrayAt(object, 'messages')
  if (uiMessages && isUiMessageList(uiMessages)) {
    // A persisted chat or a useChat request body: `{id, messages, trigger?}`.
    return conversationOf({ ...naming(object, index), messages: readUiMessages(uiMessages, child(path, 'messages')), path: child(path, 'messages'), meta: scalars(object) })
  }
  const messages = readPrompt(object, path)
  const meta = new Map<number, MessageMeta>()
  let messagesPath = Array.isArray(object['messages']) ? child(path, 'messages') : path
  const steps = arrayAt(object, 'steps')
  const responseMessages = arrayAt(objectAt(object, 'response'), 'messages')
  if (steps) {
    messagesPath = child(path, 'steps')
    readSteps(steps, messagesPath, messages, meta)
  } else if (responseMessages) {
    messages.push(...readVercelMessages(responseMessages, child(child(path, 'response'), 'messages')))
    if (typeof object['finishReason'] === 'string' && messages.at(-1)?.role === 'assistant') meta.set(messages.length - 1, { finishReason: object['finishReason'] })
  } else if (!Array.isArray(object['messages'])) {
    throw new BadField(path, tracePhrase('fieldExpectedFound', { what: tracePhrase('expVercelKeys'), keys: keyList(object) }))
  }
  fillToolNames(messages)
  return conversationOf({ ...naming(object, index), messages, path: messagesPath, meta: scalars(object), messageMeta: meta })
}

function isMessagesArray(document: LogDocument): boolean {
  if (document.kind !== 'json' || !Array.isArray(document.value)) return false
  const first = document.value[0]
  return isJsonObject(first) && 'role' in first
}

function vercelMarks(value: JsonValue | undefined): Phrase | undefined {
  if (Array.isArray(value)) {
    if (isUiMessageList(value)) return tracePhrase('whatUiMessages', { messages: plural(value.length, 'Message') })
    return messageStyle(value).vercel ? tracePhrase('whatPartsArray') : undefined
  }
  if (!isJsonObject(value)) return undefined
  const listed = arrayAt(value, 'messages')
  if (listed && isUiMessageList(listed)) return tracePhrase('whatUiChat', { messages: plural(listed.length, 'Message') })
  const steps = arrayAt(value, 'steps')
  const step = steps?.[0]
  if (isJsonObject(step) && ('toolCalls' in step || 'finishReason' in step || ('content' in step && messageStyle([step]).vercel))) return tracePhrase('whatGenerateText', { steps: plural(steps?.length ?? 0, 'Step') })
  const messages = arrayAt(value, 'messages') ?? arrayAt(objectAt(value, 'response'), 'messages')
  if (messages && messageStyle(messages).vercel) return tracePhrase('whatParts')
  return undefined
}

export const vercelAiImporter: Importer = {
  id: 'vercel-ai',
  title: 'Vercel AI SDK messages',
  detect(document) {
    const whole = isMessagesArray(document)
    const marks = vercelMarks(whole ? (document as { value: JsonValue }).value : firstRecord(document))
    if (!marks) return undefined
    return { confidence: 0.9, ...recognised('recogVercel', { what: marks }) }
  },
  *read(document): Generator<ImportStep, void, void> {
    const records = recordsOf(document, isMessagesArray(document))
    for (const record of records) yield { conversation: readRecord(record.value, record.path, record.index), fraction: (record.index + 1) / records.length }
  },
}
