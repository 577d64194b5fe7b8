/**
 * Importing foreign logs into canonical conversations. Formats handled (auto-detected):
 * - `openai-messages`: one OpenAI Chat Completions conversation, as a bare `messages` array
 *   or as a request-like object `{messages, tools?}`;
 * - `openai-conversations`: a list of conversations, each a record with `messages` or `traj`
 *   (τ-bench's result files) or a bare messages array;
 * - `toolstep-session`: Toolstep's own session file, recognised here and handed back
 *   untouched in `session` for the session-file reader to validate.
 *
 * Pure; never throws.
 */
import type { JsonValue, Message } from '../messages'
import type { ToolSpec } from '../tools/types'
import { describeJson, isJsonObject } from './arguments'
import { BadField, child, toCanonicalMessages, toToolSpecs } from './openai-log'

/** Formats `importLog` understands. Ids are stable: they appear in the CLI's `--format`. */
export const LOG_FORMATS = ['openai-messages', 'openai-conversations', 'toolstep-session'] as const
/** A log format id. */
export type LogFormat = (typeof LOG_FORMATS)[number]

/** One conversation found in a log. */
export interface ImportedConversation {
  /** Unique within the import, e.g. `task-3-trial-1`, the record's own `id`, or the 0-based index. */
  id: string
  /** Short human label, e.g. `task 3 · trial 1 · reward 0`. */
  label: string
  /** The conversation in canonical form, in log order. */
  messages: Message[]
  /** Tool definitions carried by the log for this conversation, when it has any. */
  tools?: ToolSpec[]
  /** JSON path of the messages array in the file, e.g. `[3].traj` (`''` when the file is the array). */
  path: string
  /** The record's scalar fields (e.g. `task_id`, `trial`, `reward`), for display and search. */
  meta: Record<string, string | number | boolean | null>
}

/** Options for `importLog`. */
export interface ImportOptions {
  /** Force a format instead of detecting it (default `auto`). */
  format?: 'auto' | LogFormat
}

/** What `importLog` returns. */
export type ImportResult =
  | {
      ok: true
      /** The format that was read (for `auto`, the one detected). */
      format: LogFormat
      /** Conversations in file order; empty for `toolstep-session`. */
      conversations: ImportedConversation[]
      /** Only for `toolstep-session`: the parsed file, not yet validated. */
      session?: JsonValue
    }
  | {
      ok: false
      /** Says what was recognised and names the path of the bad field, e.g. `… but [3].traj[5].role: …`. */
      error: string
    }

/**
 * Import a log file's text. Pure; never throws.
 *
 * @param text - The whole file, as text (JSON).
 * @returns Conversations in canonical form, or an error naming what was recognised and
 *   the JSON path where reading stopped.
 */
export function importLog(text: string, options: ImportOptions = {}): ImportResult {
  const parsed = parseJson(text)
  if (!parsed.ok) return parsed
  const json = parsed.value
  const wanted = options.format ?? 'auto'
  const shape = wanted === 'auto' ? detect(json) : forced(json, wanted)
  if ('error' in shape) return { ok: false, error: shape.error }
  try {
    switch (shape.format) {
      case 'toolstep-session':
        return { ok: true, format: shape.format, conversations: [], session: json }
      case 'openai-messages':
        return { ok: true, format: shape.format, conversations: [readConversation(json, '', 0)] }
      case 'openai-conversations': {
        const records = json as JsonValue[]
        return { ok: true, format: shape.format, conversations: uniqueIds(records.map((record, index) => readConversation(record, child('', index), index))) }
      }
    }
  } catch (error) {
    if (error instanceof BadField) return { ok: false, error: `Recognised ${shape.recognised}, but ${error.path === '' ? 'the file' : error.path}: ${error.problem}.` }
    return { ok: false, error: `Could not import ${shape.recognised}: ${error instanceof Error ? error.message : String(error)}` }
  }
}

/**
 * Import an OpenAI `tools` array (or `{tools: [...]}`) from a file's text. Pure; never throws.
 * Also accepts Responses API, Anthropic and Toolstep tool definitions (see `toToolSpecs`).
 *
 * @returns The tools in file order, or an error naming the path of the bad field.
 */
export function importOpenAITools(text: string): { ok: true; tools: ToolSpec[] } | { ok: false; error: string } {
  const parsed = parseJson(text)
  if (!parsed.ok) return parsed
  const json = parsed.value
  const wrapped = isJsonObject(json) && Array.isArray(json['tools'])
  try {
    return { ok: true, tools: toToolSpecs(wrapped ? json['tools'] : json, wrapped ? 'tools' : '') }
  } catch (error) {
    if (error instanceof BadField) return { ok: false, error: `Not a usable tools file: ${error.path === '' ? 'the file' : error.path}: ${error.problem}.` }
    return { ok: false, error: `Not a usable tools file: ${error instanceof Error ? error.message : String(error)}` }
  }
}

function parseJson(text: string): { ok: true; value: JsonValue } | { ok: false; error: string } {
  // A UTF-8 byte order mark is common in files saved on Windows and is not JSON.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (body.trim() === '') return { ok: false, error: 'The file is empty.' }
  try {
    return { ok: true, value: JSON.parse(body) as JsonValue }
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}.` }
  }
}

type Shape = { format: LogFormat; recognised: string } | { error: string }

function detect(json: JsonValue): Shape {
  if (isJsonObject(json)) {
    if (json['format'] === 'toolstep.session') return { format: 'toolstep-session', recognised: 'a Toolstep session file' }
    if (Array.isArray(json['messages'])) return { format: 'openai-messages', recognised: 'an OpenAI Chat Completions request (an object with "messages")' }
    return { error: `Not a recognised log: the file is an object with ${keyList(json)}; expected an OpenAI "messages" array, a list of conversations, or a Toolstep session file.` }
  }
  if (!Array.isArray(json)) return { error: `Not a recognised log: the file is a JSON ${describeJson(json)}; expected an array of messages or of conversations.` }
  const first = json[0]
  if (first === undefined) return { error: 'Not a recognised log: the file is an empty array.' }
  if (isJsonObject(first) && 'role' in first) return { format: 'openai-messages', recognised: `an OpenAI Chat Completions messages array (${plural(json.length, 'message')})` }
  if (Array.isArray(first)) return { format: 'openai-conversations', recognised: `a list of ${plural(json.length, 'conversation')} (messages arrays)` }
  if (isJsonObject(first)) {
    // Keyed on presence, not type, so a record whose `traj` is broken gets an error with its path.
    const key = 'traj' in first ? 'traj' : 'messages' in first ? 'messages' : undefined
    if (key) return { format: 'openai-conversations', recognised: `a list of ${plural(json.length, 'conversation')} (records with "${key}")` }
    return { error: `Not a recognised log: [0] is an object with ${keyList(first)}; expected a message (with "role") or a conversation (with "messages" or "traj").` }
  }
  return { error: `Not a recognised log: [0] is a ${describeJson(first)}; expected a message or a conversation.` }
}

function forced(json: JsonValue, format: LogFormat): Shape {
  const detected = detect(json)
  if ('format' in detected && detected.format === format) return detected
  switch (format) {
    case 'toolstep-session':
      return { error: 'Not a Toolstep session file: expected an object with "format": "toolstep.session".' }
    case 'openai-messages':
      if (Array.isArray(json)) return { format, recognised: `an array of ${json.length} items read as OpenAI messages` }
      return { error: `Not an OpenAI messages log: expected an array of messages or an object with "messages", got ${describeJson(json)}.` }
    case 'openai-conversations':
      if (Array.isArray(json)) return { format, recognised: `an array of ${json.length} items read as conversations` }
      return { error: `Not a list of conversations: expected an array, got ${describeJson(json)}.` }
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

function keyList(object: Record<string, JsonValue>): string {
  const keys = Object.keys(object)
  if (keys.length === 0) return 'no keys'
  const shown = keys.slice(0, 8).map((key) => `"${key}"`).join(', ')
  return `keys ${shown}${keys.length > 8 ? `, … (${keys.length} in all)` : ''}`
}

/** Reads one conversation: a messages array, or a record holding one in `messages` or `traj`. */
function readConversation(value: JsonValue, path: string, index: number): ImportedConversation {
  if (Array.isArray(value)) {
    return { id: String(index), label: `conversation ${index}`, messages: toCanonicalMessages(value, path), path, meta: {} }
  }
  if (!isJsonObject(value)) throw new BadField(path, `expected a conversation (a messages array or an object with "messages" or "traj"), got ${describeJson(value)}`)
  const key = Array.isArray(value['messages']) ? 'messages' : Array.isArray(value['traj']) ? 'traj' : undefined
  if (key === undefined) {
    const present = 'messages' in value ? 'messages' : 'traj' in value ? 'traj' : undefined
    if (present) throw new BadField(child(path, present), `expected an array of messages, got ${describeJson(value[present])}`)
    throw new BadField(path, `expected "messages" or "traj" (an array of messages); found ${keyList(value)}`)
  }
  const messagesPath = child(path, key)
  const conversation: ImportedConversation = {
    ...naming(value, index),
    messages: toCanonicalMessages(value[key], messagesPath),
    path: messagesPath,
    meta: scalars(value),
  }
  if (value['tools'] !== undefined) conversation.tools = toToolSpecs(value['tools'], child(path, 'tools'))
  return conversation
}

function scalars(record: Record<string, JsonValue>): ImportedConversation['meta'] {
  // fromEntries defines own properties, so a logged "__proto__" key stays a plain field.
  return Object.fromEntries(
    Object.entries(record).filter((entry): entry is [string, string | number | boolean | null] => entry[1] === null || typeof entry[1] !== 'object'),
  )
}

/** Id and label from the record's own id, or τ-bench's `task_id` / `trial` / `reward`. */
function naming(record: Record<string, JsonValue>, index: number): { id: string; label: string } {
  const own = record['id']
  const task = record['task_id']
  const trial = record['trial']
  const reward = record['reward']
  const parts: string[] = []
  let id = String(index)
  if (typeof own === 'string' || typeof own === 'number') {
    id = String(own)
    parts.push(String(own))
  } else if (typeof task === 'string' || typeof task === 'number') {
    id = `task-${task}`
    parts.push(`task ${task}`)
    if (typeof trial === 'string' || typeof trial === 'number') {
      id += `-trial-${trial}`
      parts.push(`trial ${trial}`)
    }
  } else {
    parts.push(`conversation ${index}`)
  }
  if (typeof reward === 'number' || typeof reward === 'string') parts.push(`reward ${reward}`)
  return { id, label: parts.join(' · ') }
}

/** Ids must be unique for selection; a repeated one gets `#index` appended. */
function uniqueIds(conversations: ImportedConversation[]): ImportedConversation[] {
  const seen = new Set<string>()
  return conversations.map((conversation, index) => {
    const id = seen.has(conversation.id) ? `${conversation.id}#${index}` : conversation.id
    seen.add(id)
    return id === conversation.id ? conversation : { ...conversation, id }
  })
}
