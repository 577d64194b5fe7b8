/**
 * `langfuse`: Langfuse exports. Source: Langfuse's data model docs and public API
 * (`GET /api/public/traces/{id}`, Observations API): a trace `{id, name, input, output,
 * observations: [...]}`, where `GENERATION` observations hold the model call: `input` in
 * ChatML (OpenAI messages, or `{messages: [...]}`) and `output` (an assistant message, a
 * string, or a `choices` response), plus `startTime`, `model`, `metadata`.
 *
 * Shapes read: one trace ("Download JSON" in the UI), `{traces: [...]}` (a session
 * download), a list of traces, or a list of observations (`[...]`, `{data: [...]}`, JSONL).
 * Each generation is an exchange; generations are taken in `startTime` order (or, when an
 * export leaves it out, `completionStartTime`, `createdAt`, `timestamp`, `endTime`, `updatedAt`;
 * with none of them, file order) and joined
 * into conversations by prefix (see `threads.ts`).
 *
 * Pure.
 */
import type { JsonValue, Message } from '../../messages'
import { isJsonObject } from '../arguments'
import { BadField, child, fillToolNames, readOpenAIMessage, readOpenAIMessages, toToolSpecs } from '../openai-log'
import { arrayAt, asText, firstRecord, labelled, objectAt, plural, recordsOf, stringAt, type JsonObject } from './shared'
import { readJoined, type Exchange } from './threads'
import type { Importer, LogDocument, MessageMeta } from './types'
import { recognised, tracePhrase } from '../trace-text'

interface Generation {
  observation: JsonObject
  path: string
  traceId: string
  traceName: string
  start: string
}

/** Fields that order observations, best first: when the call started, else when it was written or ended. */
const TIME_FIELDS = ['startTime', 'completionStartTime', 'createdAt', 'timestamp', 'endTime', 'updatedAt'] as const

function isObservation(value: JsonValue | undefined): value is JsonObject {
  return isJsonObject(value) && typeof value['type'] === 'string' && ('traceId' in value || TIME_FIELDS.some((key) => key in value)) && ('input' in value || 'output' in value)
}

/**
 * The observation's sort key: `startTime`, or the next best time field when an export left it
 * out; `''` (file order) when it has none. ISO 8601 UTC text sorts as time.
 */
function startOf(observation: JsonObject): string {
  for (const key of TIME_FIELDS) {
    const value = observation[key]
    if (typeof value === 'string' && value !== '') return value
  }
  return ''
}

function isTrace(value: JsonValue | undefined): value is JsonObject {
  return isJsonObject(value) && Array.isArray(value['observations'])
}

/** Generations of a document, in file order. */
function generationsOf(document: LogDocument): Generation[] {
  const found: Generation[] = []
  // Recursive on the document's nesting, which parseLogDocument bounds to MAX_FILE_DEPTH (1000)
  // levels before any importer runs (a clear error there, never a stack overflow here).
  const visit = (value: JsonValue, path: string, trace?: JsonObject): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, child(path, index), trace))
      return
    }
    if (isTrace(value)) {
      visit(value['observations'] ?? [], child(path, 'observations'), value)
      return
    }
    // Inside a trace an observation needs neither traceId nor startTime to be recognised.
    if (isObservation(value) || (trace !== undefined && isJsonObject(value) && typeof value['type'] === 'string' && ('input' in value || 'output' in value))) {
      if (value['type'] !== 'GENERATION') return
      found.push({
        observation: value,
        path,
        traceId: stringAt(value, 'traceId') ?? stringAt(trace, 'id') ?? '',
        traceName: stringAt(trace, 'name') ?? '',
        start: startOf(value),
      })
      return
    }
    const nested = arrayAt(value, 'traces') ?? arrayAt(value, 'data')
    if (nested) visit(nested, child(path, arrayAt(value, 'traces') ? 'traces' : 'data'))
  }
  for (const record of recordsOf(document, true)) visit(record.value, record.path)
  return found
}

/** Generation input: ChatML messages, `{messages}`, or anything else as one user message. */
function readInput(value: JsonValue | undefined, path: string): { messages: Message[]; path: string } {
  if (Array.isArray(value)) return { messages: readOpenAIMessages(value, path).messages, path }
  const messages = arrayAt(value, 'messages')
  if (messages) return { messages: readOpenAIMessages(messages, child(path, 'messages')).messages, path: child(path, 'messages') }
  if (value === undefined || value === null) return { messages: [], path }
  return { messages: [{ role: 'user', content: asText(value) }], path }
}

/** Generation output: an assistant message, a `choices` response, messages, or text. */
function readOutput(value: JsonValue | undefined, path: string, index: number): { messages: Message[]; finishReason?: string } {
  if (value === undefined || value === null) return { messages: [] }
  if (typeof value === 'string') return { messages: [{ role: 'assistant', content: value }] }
  if (Array.isArray(value)) return { messages: readOpenAIMessages(value, path).messages }
  const choice = arrayAt(value, 'choices')?.[0]
  if (isJsonObject(choice)) {
    const reason = choice['finish_reason']
    return { messages: [readOpenAIMessage(choice['message'] ?? null, child(child(child(path, 'choices'), 0), 'message'), index)], ...(typeof reason === 'string' ? { finishReason: reason } : {}) }
  }
  if (isJsonObject(value) && typeof value['role'] === 'string') return { messages: [readOpenAIMessage(value, path, index)] }
  return { messages: [{ role: 'assistant', content: asText(value) }] }
}

function readGeneration(generation: Generation, index: number): Exchange {
  const { observation, path } = generation
  const input = readInput(observation['input'], child(path, 'input'))
  const messages = input.messages
  const requestLength = messages.length
  const output = readOutput(observation['output'], child(path, 'output'), requestLength)
  messages.push(...output.messages)
  fillToolNames(messages)
  const messageMeta = new Map<number, MessageMeta>()
  const reason = output.finishReason ?? stringAt(objectAt(observation, 'metadata'), 'finish_reason')
  if (reason !== undefined && messages.length > requestLength) messageMeta.set(messages.length - 1, { finishReason: reason })
  const toolsValue = objectAt(observation, 'modelParameters')?.['tools'] ?? objectAt(observation, 'metadata')?.['tools']
  const tools = Array.isArray(toolsValue) ? toToolSpecs(toolsValue, child(path, 'metadata.tools')) : undefined
  const trace = generation.traceId || String(index)
  const name = generation.traceName || stringAt(observation, 'name') || ''
  return {
    messages,
    requestLength,
    messageMeta,
    tools,
    id: trace,
    ...labelled(name ? tracePhrase('labelNamed', { head: tracePhrase('labelTrace', { trace: trace.slice(0, 12) }), name }) : tracePhrase('labelTrace', { trace: trace.slice(0, 12) })),
    path: input.path,
    meta: Object.fromEntries(['traceId', 'id', 'name', 'model', 'startTime'].flatMap((key) => (typeof observation[key] === 'string' ? [[key, observation[key]]] : []))) as Record<string, string>,
  }
}

export const langfuseImporter: Importer = {
  id: 'langfuse',
  title: 'Langfuse export',
  detect(document) {
    const first = firstRecord(document)
    const sample = document.kind === 'json' && !Array.isArray(document.value) ? document.value : first
    const traces = isTrace(sample) ? 1 : arrayAt(sample, 'traces')?.length
    if (traces !== undefined) return { confidence: 0.9, ...(traces === 1 && isTrace(sample) ? recognised('recogLangfuseTrace') : recognised('recogLangfuseSession', { traces: plural(traces, 'Trace') })) }
    const observations = arrayAt(sample, 'data') ?? [sample ?? null]
    if (isObservation(observations[0])) return { confidence: 0.85, ...recognised('recogLangfuseObservations') }
    return undefined
  },
  *read(document) {
    const generations = generationsOf(document)
      .map((generation, order) => ({ generation, order }))
      .sort((a, b) => (a.generation.start < b.generation.start ? -1 : a.generation.start > b.generation.start ? 1 : a.order - b.order))
      .map(({ generation }) => generation)
    if (generations.length === 0) throw new BadField('', tracePhrase('fieldNoGeneration'))
    yield* readJoined(
      generations.map((generation, index) => ({ value: null, path: generation.path, index })),
      (_value, _path, index) => readGeneration(generations[index]!, index),
    )
  },
}
