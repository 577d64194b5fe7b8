/**
 * Importing foreign logs into canonical conversations. Each dialect has its own importer
 * under `importers/` (see `importers/registry.ts` for the list and `LOG_FORMATS` for the ids);
 * this module parses the text once (JSON, JSONL or server-sent events), picks the importer
 * (detected, or forced by `format`) and turns what it reads into a result value.
 *
 * Pure; never throws; time linear in the size of the log.
 */
import type { JsonValue } from '../messages'
import type { ToolSpec } from '../tools/types'
import { describeJson, isJsonObject } from './arguments'
import { detectAll, importerFor, MIN_CONFIDENCE } from './importers/registry'
import { uniqueIdGiver } from './importers/shared'
import { LOG_FORMATS, type Detection, type ImportedConversation, type Importer, type LogDocument, type LogFormat } from './importers/types'
import { failure, parseLogDocument, type ReadFailure } from './log-document'
import { phraseRef, type PhraseRef } from '../util/phrase'
import { TRACE_TEXT, traceRef } from './trace-text'
import { BadField, describePath, toToolSpecs } from './openai-log'
import { errorMessage } from '../util/error-message'
import { parseJsonText } from '../util/text-file'
import { PARSE_TEXT } from '../util/parse-text'

export { LOG_FORMATS, type ImportedConversation, type LogFormat }
export type { MessageMeta } from './importers/types'

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
      /** `error` as a phrase of `TRACE_TEXT` (what the importer recognised and the field's problem stay English inside it). */
      errorPhrase?: PhraseRef
    }

/**
 * Import a log file's text. Pure; never throws.
 *
 * @param text - The whole file, as text: JSON, JSONL, or a server-sent event stream.
 * @returns Conversations in canonical form, or an error naming what was recognised and
 *   the JSON path where reading stopped (`line N: …` for JSON lines).
 */
export function importLog(text: string, options: ImportOptions = {}): ImportResult {
  const steps = importLogIncremental(text, options)
  let step = steps.next()
  while (!step.done) step = steps.next()
  return step.value
}

/**
 * `importLog` one conversation at a time: yields the fraction (0..1) of the log read so far
 * after each conversation (or batch of records), and returns the same result `importLog`
 * would. A worker can step it and post progress; parsing the JSON text itself happens before
 * the first yield and is not divisible. Pure; never throws.
 */
export function* importLogIncremental(text: string, options: ImportOptions = {}): Generator<number, ImportResult, void> {
  const parsed = parseLogDocument(text)
  if (!parsed.ok) return parsed
  const { document } = parsed
  const chosen = choose(document, options.format ?? 'auto')
  if ('error' in chosen) return chosen.error
  const { importer, reason } = chosen
  try {
    if (importer.id === 'toolstep-session') {
      for (const _ of importer.read(document)) void _
      return { ok: true, format: importer.id, conversations: [], session: document.kind === 'json' ? document.value : null }
    }
    const unique = uniqueIdGiver()
    const conversations: ImportedConversation[] = []
    for (const step of importer.read(document)) {
      if (step.conversation) conversations.push(unique(step.conversation))
      yield step.fraction
    }
    return { ok: true, format: importer.id, conversations }
  } catch (error) {
    if (error instanceof BadField) return failure('importBadField', { what: reason, path: error.path === '' ? traceRef('theFile') : describePath(error.path), problem: error.problemParam() })
    return failure('importFailed', { what: reason, error: errorMessage(error) })
  }
}

/** Options for `importLogChunked`. */
export interface ChunkedImportOptions extends ImportOptions {
  /** Called with the fraction read (0..1, non-decreasing) after each batch, and with 1 at the end. */
  onProgress?: (fraction: number) => void
  /**
   * Awaited between batches so the caller can let its event loop run (e.g. resolve on a
   * `setTimeout` on the page; a worker may keep the default, which only yields to microtasks).
   */
  pause?: () => Promise<void>
  /** Import steps (conversations or record batches) per batch; default 200. */
  batchSize?: number
}

/**
 * `importLog` in batches, for big logs: reports progress and pauses between batches.
 * Same result as `importLog`; never rejects.
 */
export async function importLogChunked(text: string, options: ChunkedImportOptions = {}): Promise<ImportResult> {
  const { onProgress, pause = () => Promise.resolve(), batchSize = 200 } = options
  const steps = importLogIncremental(text, options)
  let count = 0
  for (;;) {
    const step = steps.next()
    if (step.done) {
      onProgress?.(1)
      return step.value
    }
    if (++count % batchSize === 0) {
      onProgress?.(step.value)
      await pause()
    }
  }
}

type Choice = { importer: Importer; reason: string | PhraseRef } | { error: ReadFailure }

function choose(document: LogDocument, format: 'auto' | LogFormat): Choice {
  if (format === 'auto') {
    const best = detectAll(document)[0]
    if (best && best.detection.confidence >= MIN_CONFIDENCE) return { importer: best.importer, reason: reasonOf(best.detection) }
    if (document.kind === 'json' && Array.isArray(document.value) && document.value.length === 0) return { error: failure('notRecognisedEmpty') }
    return { error: failure('notRecognised', { sample: describeSample(document), supported: traceRef('supported') }) }
  }
  const importer = importerFor(format)
  let detection
  try {
    detection = importer.detect(document)
  } catch {
    detection = undefined
  }
  // Reading a file as the wrong dialect silently drops what that dialect does not know (tool_use
  // blocks read as OpenAI, say), so a file another importer recognises better is refused.
  const other = detectAll(document).find((d) => d.importer.id !== format && d.detection.confidence >= MIN_CONFIDENCE && d.detection.confidence > (detection?.confidence ?? 0))
  if (format === 'toolstep-session' && !detection) return { error: failure('notSession') }
  if (other) return { error: failure('wrongFormat', { title: importer.title, format, otherTitle: other.importer.title, other: other.importer.id, reason: reasonOf(other.detection) }) }
  if (detection) return { importer, reason: reasonOf(detection) }
  const title = importer.title
  return { importer, reason: document.kind === 'lines' ? traceRef('readAsLines', { count: document.lines.length, title }) : traceRef('readAsJson', { kind: describeJson(document.value), title }) }
}

/** What an importer recognised, to nest in an error: its phrase, or its English when it has none. */
function reasonOf(detection: Detection): string | PhraseRef {
  return detection.phrase ? phraseRef('trace', detection.phrase, TRACE_TEXT) : detection.reason
}

/** What the file looked like, for "not recognised". */
function describeSample(document: LogDocument): PhraseRef {
  if (document.kind === 'lines') {
    const first = document.lines[0]
    return traceRef('sampleLine', { line: first?.line ?? 1, value: describeValue(first?.value ?? null) })
  }
  const { value } = document
  if (Array.isArray(value)) return value.length === 0 ? traceRef('sampleEmptyArray') : traceRef('sampleFirst', { value: describeValue(value[0] ?? null) })
  return isJsonObject(value) ? traceRef('sampleFileObject', { keys: keysRef(value) }) : traceRef('sampleFileJson', { kind: describeJson(value) })
}

function describeValue(value: JsonValue): PhraseRef {
  return isJsonObject(value) ? traceRef('valueObject', { keys: keysRef(value) }) : traceRef('valueKind', { kind: describeJson(value) })
}

/** `keyList` as a phrase: the keys quoted, the first 8 of them. */
function keysRef(object: Record<string, JsonValue>): PhraseRef {
  const keys = Object.keys(object)
  if (keys.length === 0) return traceRef('keysNone')
  const list = keys
    .slice(0, 8)
    .map((key) => `"${key}"`)
    .join(', ')
  return keys.length > 8 ? traceRef('keysMany', { list, total: keys.length }) : traceRef('keysSome', { list })
}

/**
 * Import an OpenAI `tools` array (or `{tools: [...]}`) from a file's text. Pure; never throws.
 * Also accepts Responses API, Anthropic and Toolstep tool definitions (see `toToolSpecs`).
 *
 * @returns The tools in file order, or an error naming the path of the bad field.
 */
export function importOpenAITools(text: string): { ok: true; tools: ToolSpec[] } | { ok: false; error: string; errorPhrase?: PhraseRef } {
  const parsed = parseJsonText(text)
  if (!parsed.ok) return { ok: false, error: parsed.error, errorPhrase: phraseRef('parse', parsed.errorPhrase, PARSE_TEXT) }
  const json = parsed.value
  const wrapped = isJsonObject(json) && Array.isArray(json['tools'])
  try {
    return { ok: true, tools: toToolSpecs(wrapped ? json['tools'] : json, wrapped ? 'tools' : '') }
  } catch (error) {
    if (error instanceof BadField) return failure('toolsFileBad', { path: error.path === '' ? traceRef('theFile') : error.path, problem: error.problemParam() })
    return failure('toolsFileFailed', { error: errorMessage(error) })
  }
}

