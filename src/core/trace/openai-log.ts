/**
 * Converting OpenAI Chat Completions data (messages, `tools`) into canonical types.
 * Source of the formats: the Chat Completions API reference (request `messages` and
 * `tools`, response `choices[].message`); the Responses API and Anthropic tool shapes are
 * accepted for tool definitions because people paste whichever they have.
 *
 * Pure. Problems are thrown as `BadField` (path + problem) and turned into an error value
 * by the public entry points, which never throw.
 */
import type { AssistantMessage, JsonValue, Message, ToolCall } from '../messages'
import type { JsonSchema, ToolSpec } from '../tools/types'
import { describeJson, isJsonObject, readArguments } from './arguments'
import { phraseRef, type Phrase, type PhraseRef } from '../util/phrase'
import { expectedGot, traceEnglish, tracePhrase, TRACE_TEXT } from './trace-text'

/** A field that could not be read: where it is (`[3].traj[5].role`) and what is wrong with it. */
export class BadField extends Error {
  /** What is wrong, e.g. `expected a string, got number` (English). */
  readonly problem: string
  /** `problem` as a phrase of `TRACE_TEXT`, which the UI translates (absent when given as a string). */
  readonly problemPhrase: Phrase | undefined

  constructor(
    /** JSON path of the field, e.g. `[3].traj[5].tool_calls[0].function.name`; `''` for the root. */
    readonly path: string,
    /** What is wrong: a phrase of `TRACE_TEXT` (see {@link expectedGot}), or English. */
    problem: string | Phrase,
  ) {
    const english = typeof problem === 'string' ? problem : traceEnglish(problem)
    super(`${path === '' ? 'the file' : path}: ${english}`)
    this.name = 'BadField'
    this.problem = english
    this.problemPhrase = typeof problem === 'string' ? undefined : problem
  }

  /** `problem` to nest in an error phrase: a reference to its phrase, or the English. */
  problemParam(): string | PhraseRef {
    return this.problemPhrase ? phraseRef('trace', this.problemPhrase, TRACE_TEXT) : this.problem
  }
}

/**
 * Appends a key or index to a JSON path: `child('[3]', 'traj')` → `[3].traj`.
 * A path ending in `": "` is the root of one JSONL line (`line 3: `), so a key follows it bare.
 */
export function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  const root = path === '' || path.endsWith(': ')
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (root ? `${path}${key}` : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`
}

/** A path for people: `''` is the file, a line root `line 3: ` is `line 3`. */
export function describePath(path: string): string {
  if (path === '') return 'the file'
  return path.endsWith(': ') ? path.slice(0, -2) : path
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const

/**
 * Convert an OpenAI messages array (found at `path`) into canonical messages.
 * `developer` messages become `system`; content given as parts is joined; tool messages
 * without a `name` take the name of the call they answer.
 *
 * @throws BadField for a field that is missing or of the wrong type.
 */
export function toCanonicalMessages(value: unknown, path: string): Message[] {
  return readOpenAIMessages(value, path).messages
}

/**
 * Like `toCanonicalMessages`, and also collects each assistant message's `finish_reason`
 * when the log kept one on the message (some loggers do), keyed by message index.
 *
 * @throws BadField for a field that is missing or of the wrong type.
 */
export function readOpenAIMessages(value: unknown, path: string): { messages: Message[]; finishReasons: Map<number, string> } {
  if (!Array.isArray(value)) throw new BadField(path, expectedGot('expMessages', describeJson(value)))
  const finishReasons = new Map<number, string>()
  const messages = value.map((item, index) => {
    const message = toCanonicalMessage(item, child(path, index), index)
    const reason = isJsonObject(item) ? item['finish_reason'] : undefined
    if (message.role === 'assistant' && typeof reason === 'string') finishReasons.set(index, reason)
    return message
  })
  fillToolNames(messages)
  return { messages, finishReasons }
}

/**
 * Converts one OpenAI message (e.g. a response's `choices[0].message`) found at `path`.
 * `index` seeds generated call ids. Tool names are not filled in here.
 *
 * @throws BadField for a field that is missing or of the wrong type.
 */
export function readOpenAIMessage(value: unknown, path: string, index: number): Message {
  return toCanonicalMessage(value, path, index)
}

function toCanonicalMessage(value: unknown, path: string, index: number): Message {
  if (!isJsonObject(value)) throw new BadField(path, expectedGot('expMessage', describeJson(value)))
  const role = value['role']
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
    const got = role === undefined ? tracePhrase('gotNoRole') : tracePhrase('gotRole', { role: JSON.stringify(role) })
    throw new BadField(child(path, 'role'), expectedGot(tracePhrase('expOneOf', { values: ROLES.map((name) => `"${name}"`).join(', ') }), got))
  }
  const content = readContent(value['content'], child(path, 'content'))
  switch (role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: content ?? '' }
    case 'user':
      return { role: 'user', content: content ?? '' }
    case 'tool': {
      const id = value['tool_call_id']
      if (typeof id !== 'string') throw new BadField(child(path, 'tool_call_id'), tracePhrase('fieldToolCallId', { got: describeJson(id) }))
      const name = value['name']
      return { role: 'tool', tool_call_id: id, name: typeof name === 'string' ? name : '', content: content ?? '' }
    }
    default: {
      const message: AssistantMessage = { role: 'assistant', content }
      const calls = readToolCalls(value['tool_calls'], child(path, 'tool_calls'), index)
      if (calls.length > 0) message.tool_calls = calls
      return message
    }
  }
}

/** Content is a string, null/absent, or an array of parts (`{type:'text', text}` and others); parts are joined. @throws BadField */
export function readContent(value: unknown, path: string): string | null {
  if (value === undefined || value === null) return null
  if (typeof value === 'string') return value
  if (!Array.isArray(value)) throw new BadField(path, expectedGot('expStringNullParts', describeJson(value)))
  return value
    .map((part, index) => {
      if (typeof part === 'string') return part
      if (!isJsonObject(part)) throw new BadField(child(path, index), expectedGot('expContentPartObject', describeJson(part)))
      const text = part['text']
      if (typeof text === 'string') return text
      // Images, audio and files cannot be shown as text; keep a marker so the turn is not silently empty.
      return `[${typeof part['type'] === 'string' ? part['type'] : 'part'}]`
    })
    .join('')
}

function readToolCalls(value: unknown, path: string, messageIndex: number): ToolCall[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw new BadField(path, expectedGot('expToolCalls', describeJson(value)))
  return value.map((item, index) => {
    const callPath = child(path, index)
    if (!isJsonObject(item)) throw new BadField(callPath, expectedGot('expToolCallObject', describeJson(item)))
    const fn = item['function']
    if (!isJsonObject(fn)) throw new BadField(child(callPath, 'function'), expectedGot('expFunction', describeJson(fn)))
    const name = fn['name']
    if (typeof name !== 'string') throw new BadField(child(child(callPath, 'function'), 'name'), expectedGot('expString', describeJson(name)))
    const id = item['id']
    const call: ToolCall = {
      // A missing id cannot be paired with a result anyway; a stable generated one keeps the call visible.
      id: typeof id === 'string' ? id : `call_${messageIndex}_${index}`,
      name,
      arguments: {},
    }
    const args = fn['arguments']
    if (typeof args === 'string') {
      call.rawArguments = args
      call.arguments = readArguments(args).arguments
    } else if (isJsonObject(args)) {
      // Some loggers store the decoded object; keep it, and a string form for the wire view.
      call.arguments = args
      call.rawArguments = JSON.stringify(args)
    } else if (args !== undefined && args !== null) {
      throw new BadField(child(child(callPath, 'function'), 'arguments'), expectedGot('expJsonString', describeJson(args)))
    }
    return call
  })
}

/** Tool messages that carried no `name` take the name of the most recent call with their id. Mutates. */
export function fillToolNames(messages: Message[]): void {
  const names = new Map<string, string>()
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) names.set(call.id, call.name)
    if (message.role === 'tool' && message.name === '') message.name = names.get(message.tool_call_id) ?? ''
  }
}

/**
 * Convert tool definitions (found at `path`) into ToolSpecs. Accepts the Chat Completions
 * shape `{type:'function', function:{name, description, parameters}}`, the Responses API
 * shape `{type:'function', name, parameters}`, Anthropic's `{name, input_schema}` and
 * Toolstep's own `{name, inputSchema}`. A missing schema means "no arguments".
 *
 * @throws BadField for a definition without a name or with a schema that is not an object.
 */
export function toToolSpecs(value: unknown, path: string): ToolSpec[] {
  if (!Array.isArray(value)) throw new BadField(path, expectedGot('expToolDefinitions', describeJson(value)))
  return value.map((item, index) => {
    const itemPath = child(path, index)
    if (!isJsonObject(item)) throw new BadField(itemPath, expectedGot('expToolDefinition', describeJson(item)))
    const nested = item['function']
    const definition = isJsonObject(nested) ? nested : item
    const definitionPath = isJsonObject(nested) ? child(itemPath, 'function') : itemPath
    const name = definition['name']
    if (typeof name !== 'string' || name === '') throw new BadField(child(definitionPath, 'name'), expectedGot('expToolName', describeJson(name)))
    const description = definition['description']
    const schemaKey = ['parameters', 'input_schema', 'inputSchema'].find((key) => definition[key] !== undefined)
    const schema: JsonValue = schemaKey === undefined ? { type: 'object', properties: {} } : (definition[schemaKey] ?? null)
    if (!isJsonObject(schema)) throw new BadField(child(definitionPath, schemaKey ?? 'parameters'), expectedGot('expSchema', describeJson(schema)))
    const spec: ToolSpec = { name, description: typeof description === 'string' ? description : '', inputSchema: schema as JsonSchema }
    return spec
  })
}
