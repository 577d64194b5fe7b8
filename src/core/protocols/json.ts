/**
 * `json`: a JSON tool-call object (or an array of them) somewhere in prose, as in the hand-written
 * tool-use designs that ask the model to "answer with {"tool": …, "arguments": …}".
 */
import { scanJsonValues, type JsonReadSuccess } from '../json'
import type { JsonValue } from '../messages'
import { NAME_KEYS, isJsonObject, readCallObject, type CallReading } from './shared/call-object'
import { renderInstructions } from './shared/instructions'
import { ParseBuilder } from './shared/parse-builder'
import { fenceAround } from './shared/scan'
import { scanOutput, searchWindow, detectionReason } from './shared/detect'
import { TextScanner } from './stream/text-scanner'
import { joinOutput, type FormatDetection, type ParseResult, type Protocol, type Span } from './types'
import { nested, parseSaid } from '../util/parse-text'

/** `{"tool": "name"` (or `name`/`tool_name`/`function`, single or double quotes) at the start of an object. */
const CALL_HEAD = /^\{\s*["']?(tool|tool_name|name|function)["']?\s*:\s*["']([\w.\-]{1,100})["']/
/** An arguments key, which a `name`-led object needs to count as a call (`{"name": "Ada", …}` is data). */
const ARGUMENTS_KEY = /["']?(?:arguments|parameters|args|input)["']?\s*:/

/** A call head anywhere: `{` then a name key (single, double or no quotes). */
const ANY_CALL_HEAD = /\{\s*["']?(tool|tool_name|name|function|tool_calls)["']?\s*:/g
/** How many `name`-led objects that turn out to be data detection looks at before giving up. */
const MAX_DATA_OBJECTS = 32

/**
 * Where the earliest call-shaped JSON object starts: `{"tool": …`, `{"function": …`, xLAM's
 * `{"tool_calls": […`, or `{"name": …` with an arguments key within 400 chars. Bounded regex
 * searches; never reads the JSON itself.
 */
export function detectJsonCall(raw: string, before?: number): FormatDetection | undefined {
  const view = searchWindow(scanOutput(raw).view, before)
  const limit = before ?? Number.POSITIVE_INFINITY
  // One regex object for every call (compiling a copy per output cost as much as the search).
  const pattern = ANY_CALL_HEAD
  pattern.lastIndex = 0
  for (let seen = 0; seen < MAX_DATA_OBJECTS; seen++) {
    const match = pattern.exec(view)
    if (!match || match.index >= limit) return undefined
    const key = match[1]
    if (key !== 'name' || ARGUMENTS_KEY.test(view.slice(match.index, match.index + 400))) {
      return { at: match.index, confidence: 0.7, ...detectionReason('detectJsonObject', { at: match.index }) }
    }
  }
  return undefined
}

/** Options of {@link parseJsonCalls}. */
export interface JsonCallsOptions {
  /** Offset to start looking from (what comes before is left to the caller). */
  from?: number
  /** Report "prose around the call" as a repair. Default true. */
  reportProse?: boolean
}

/** The reading of a value that holds no call (shared: prose can hold thousands of them). */
const DATA: readonly CallReading[] = [{ kind: 'data' }]

/** True when `value` has a key a call object in prose is named by (or xLAM's `tool_calls`); cheaper than a reading. */
function mayBeCall(value: JsonValue): boolean {
  if (!isJsonObject(value)) return false
  for (const key of NAME_KEYS) if (Object.hasOwn(value, key)) return true
  return Object.hasOwn(value, 'tool_calls')
}

function readValue(builder: ParseBuilder, found: JsonReadSuccess): readonly CallReading[] {
  const { value, spans } = found
  // Most JSON in prose is data (`{}`, `[1]`, `{"a": 1}` repeated are thousands of values): an
  // object without a name key reads as data, so it is not read as a call at all.
  if (Array.isArray(value)) {
    if (value.length === 0 || !value.every(isJsonObject) || !value.some(mayBeCall)) return DATA
    const readings = value.map((item, index) => readCallObject(builder.raw, item, spans.items?.[index], 'prose'))
    return readings.some((reading) => reading.kind !== 'data') ? readings : DATA
  }
  if (!mayBeCall(value)) return DATA
  // xLAM: {"tool_calls": [{"name", "arguments"}, …]} (Salesforce xLAM function-calling models).
  if (isJsonObject(value) && Array.isArray(value.tool_calls) && !Object.hasOwn(value, 'name') && !Object.hasOwn(value, 'tool')) {
    const list = value.tool_calls
    const node = spans.members?.find((member) => member.key === 'tool_calls')?.value
    if (list.every(isJsonObject)) return list.map((item, index) => readCallObject(builder.raw, item, node?.items?.[index], 'wrapped'))
  }
  return [readCallObject(builder.raw, value, spans, 'prose')]
}

function truncatedCallName(partial: JsonValue | undefined): string | undefined {
  // The last call of a cut-off list is the one that was cut.
  const candidates = Array.isArray(partial) ? [...partial].reverse() : [partial]
  for (const candidate of candidates) {
    if (!isJsonObject(candidate)) continue
    for (const key of ['tool', 'tool_name', 'name'] as const) {
      const name = candidate[key]
      if (typeof name === 'string') return name
    }
    const inner = candidate.function
    if (isJsonObject(inner) && typeof inner.name === 'string') return inner.name
    if (typeof inner === 'string') return inner
  }
  return undefined
}

/**
 * Finds the tool-call objects in `builder.view` and records them on the builder: calls, the
 * `{"tool": "none"}` marker, fences around them, separators between them, and a call cut off by
 * the end of the output (error `truncated`). JSON that is not call-shaped is left as text.
 */
export function collectJsonCalls(builder: ParseBuilder, options: JsonCallsOptions = {}): void {
  const view = builder.view
  let lastEnd = options.from ?? 0
  let lastWasCall = false
  // Values are handled as they are read; what comes after them (invalid and cut-off candidates)
  // does not depend on them. A value without keys names no tool (readValue reads it as data), so
  // it is passed over unbuilt.
  const found = scanJsonValues(view, { spanDepth: 3, from: options.from ?? 0, skipKeyless: true, keepTruncated: (failure) => truncatedCallName(failure.partial) !== undefined }, (value) => {
    const readings = readValue(builder, value)
    if (readings.every((reading) => reading.kind === 'data')) return
    let span: Span = { start: value.start, end: value.end }
    const fence = fenceAround(view, value.start, value.end, lastEnd)
    if (fence) {
      span = fence
      builder.addRepair('fence_stripped', parseSaid('fenceAroundCall'), fence)
    }
    // Separators between consecutive calls (`; `, `, `) belong to the markup, not the text.
    if (lastWasCall && /^[\s;,]*$/.test(view.slice(lastEnd, span.start))) builder.consume(lastEnd, span.start)
    builder.consume(span.start, span.end)
    for (const repair of value.repairs) builder.addRepair(repair.code, repair, repair.span)
    for (const reading of readings) {
      if (reading.kind === 'call') {
        builder.addCall(reading.call)
        for (const repair of reading.repairs) builder.repairs.push(repair)
      } else if (reading.kind === 'error') {
        builder.addError(reading.error.code, reading.error, reading.error.span)
      }
    }
    lastEnd = span.end
    lastWasCall = true
  })
  // An object that starts like a call but is not valid JSON is a malformed call, not prose:
  // saying so lets the loop ask the model again instead of taking it as the answer.
  for (const failure of found.invalid ?? []) {
    const snippet = view.slice(failure.start, Math.min(failure.end + 1, failure.start + 400))
    const head = CALL_HEAD.exec(snippet)
    const name = head?.[2]
    if (name === undefined || name.toLowerCase() === 'none') continue
    if (head?.[1] === 'name' && !ARGUMENTS_KEY.test(snippet)) continue
    builder.addError('invalid_json', () => parseSaid('callInvalidJson', { name, problem: nested(failure.error) }), { start: failure.start, end: failure.end })
  }
  const truncated = found.truncated
  if (truncated) {
    const name = truncatedCallName(truncated.partial)
    if (name !== undefined) {
      const span = { start: truncated.start, end: view.length }
      const fence = fenceAround(view, truncated.start, view.length, lastEnd)
      builder.consume(fence ? fence.start : span.start, span.end)
      builder.addError('truncated', () => parseSaid('callCut', { name, problem: nested(truncated.error) }), span)
    }
  }
  if ((options.reportProse ?? true) && builder.calls.length > 0 && builder.text() !== '') {
    builder.addRepair('prose_ignored', parseSaid('proseIgnored'))
  }
}

/** Parses output in the `json` format. Pure; never throws; linear in `raw.length`. */
export function parseJson(raw: string): ParseResult {
  const builder = new ParseBuilder(raw, 'json')
  collectJsonCalls(builder)
  return builder.result()
}

const example = '{"tool": "get_weather", "arguments": {"city": "Paris"}}'

/**
 * `json` protocol: `{"tool": NAME, "arguments": {…}}` objects (or arrays of them) in prose;
 * `{"tool": "none"}` = no call. Also xLAM's `{"tool_calls": [{"name", "arguments"}]}` and Python
 * dict reprs (single quotes, `True`/`None`, tuples).
 */
export const json: Protocol = {
  id: 'json',
  label: 'JSON object',
  description: 'A {"tool", "arguments"} JSON object (or an array of them) in prose, fenced or not.',
  native: false,
  parse: parseJson,
  detect: detectJsonCall,
  createScanner: () => new TextScanner(false),
  instructions: (tools) =>
    renderInstructions(
      tools,
      [
        'To call a tool, answer with one JSON object: {"tool": "<tool name>", "arguments": {<arguments>}}.',
        'To call several tools at once, answer with a JSON array of such objects.',
        'You may add "reasoning": "<why>" to the object. Do not write anything after the JSON.',
        'When no tool is needed, answer in plain text (or with {"tool": "none"}).',
        'Tool results come back in the next user message; then continue.',
      ],
      (name, args) => JSON.stringify({ tool: name, arguments: args }),
    ),
  example,
  render: ({ text, calls }) => {
    const objects = calls.map((call) => ({ tool: call.name, arguments: call.arguments }))
    if (objects.length === 0) return text ?? ''
    return joinOutput(text, ['```json\n' + JSON.stringify(objects.length === 1 ? objects[0] : objects, null, 2) + '\n```'])
  },
}
