/**
 * The contract every wire-format protocol implements. A protocol turns raw model
 * output into calls and prose, and renders its own format instructions.
 */
import type { JsonValue } from '../messages'
import type { Span } from '../span'
import type { ToolSpec } from '../tools/types'
import type { Phrase } from '../util/phrase'

export type { Span } from '../span'

/** One call recognised in raw output. */
export interface ParsedCall {
  /** Tool name as written (after unescaping). */
  name: string
  /** Parsed arguments; `{}` when the call had none. */
  arguments: Record<string, JsonValue>
  /** `tool_call_id` when the format carries one (native formats); otherwise the engine generates one. */
  id?: string
  /** The arguments text as it appeared (for native formats, the `arguments` string). */
  rawArguments?: string
  /** Ids of calls in the same output that must finish before this one runs (`"dependsOn"` in JSON call objects). */
  dependsOn?: string[]
  /** Where the whole call, its name and its arguments sit in the raw output. */
  spans: { call: Span; name?: Span; arguments?: Span }
  /**
   * Set by the loop on a native call whose arguments could not be read (see
   * {@link UnreadCall}): what was wrong, e.g. `arguments cut off at char 212 by the token
   * limit`. The call keeps its `tool_call_id` and is answered with this as an error result.
   */
  argumentsError?: string
}

/**
 * A native call (one entry of `tool_calls`) whose id and name were read but whose `arguments`
 * string was not JSON: cut off, or with junk after it. Protocols return it on the error, not as
 * a call (its arguments are unknown); the loop keeps it so the call's `tool_call_id` gets an
 * error result and the history stays valid for the provider.
 */
export interface UnreadCall {
  /** Position among the message's calls, from 0. */
  index: number
  id?: string
  name: string
  /** The arguments string exactly as sent. */
  rawArguments: string
  /** True when the text ended inside the arguments (cut off), false for other defects. */
  cutOff: boolean
  /** What is wrong, one clause: `arguments cut off at char 212`. */
  problem: string
}

/** A named leniency that was applied while parsing (e.g. `fence_stripped`, `single_quotes`, `trailing_comma`). */
export interface Repair {
  code: string
  /** Human-readable explanation (English; what the CLI prints). */
  message: string
  /** `message` as a phrase of `PARSE_TEXT` (core/util/parse-text.ts), which the UI translates. */
  phrase?: Phrase
  /** Where in the raw output it applied, when known. */
  span?: Span
}

/** A machine-readable parse problem; `message` is phrased so it can be sent back to the model. */
export interface ParseError {
  /** e.g. `invalid_json`, `truncated`, `missing_name`, `unclosed_tag`. */
  code: string
  message: string
  /** `message` as a phrase of `PARSE_TEXT` (core/util/parse-text.ts), which the UI translates; the model is sent `message`. */
  phrase?: Phrase
  span?: Span
  /** The native call this error is about, when its id and name were read (see {@link UnreadCall}). */
  call?: UnreadCall
}

/** Result of parsing one raw model output. Parsers never throw; problems are in `errors`. */
export interface ParseResult {
  /** Id of the protocol that produced this result (for `auto`, the one it chose). */
  protocol: string
  calls: ParsedCall[]
  /** User-visible prose: the output minus call markup, reasoning blocks and end-of-turn tokens, trimmed. */
  text: string
  repairs: Repair[]
  errors: ParseError[]
  /** For `auto`: why that protocol was chosen. */
  detection?: string
  /** `detection` as a phrase of `PARSE_TEXT`, when it has one (the fallback chain's). */
  detectionPhrase?: Phrase
  /**
   * The model's reasoning (`<think>`, `[THINK]`, `<seed:think>` blocks, Harmony's analysis
   * channel), without its tags. Never part of `text`, and calls written inside it are not read.
   */
  reasoning?: string
}

/**
 * What {@link Protocol.detect} found: where the earliest plausible call in the format starts and
 * how sure the syntax there makes it. `auto` picks the earliest start, then the highest confidence.
 */
export interface FormatDetection {
  /** Offset (UTF-16 code units) in the raw output where the call (or its marker) starts. */
  at: number
  /**
   * 0–1. About 0.9 for a format's own special token (`[TOOL_CALLS]`, `<｜tool▁call▁begin｜>`), 0.6–0.8
   * for shared syntax that fits (`<tool_call>` with a JSON body, a call-shaped JSON object), lower
   * for guesses (a Python-looking call at the start of prose).
   */
  confidence: number
  /** One sentence saying what was found, e.g. `Found [TOOL_CALLS] at offset 12.` */
  reason: string
  /** `reason` as a phrase of `PARSE_TEXT` (core/util/parse-text.ts), which the UI translates; every built-in format gives one. */
  phrase?: Phrase
}

/** A call in a streaming snapshot: complete, or still being written. */
export interface StreamingCall {
  /**
   * Tool name; `undefined` while it is still being written (a half-written name would be shown
   * as a different tool).
   */
  name: string | undefined
  /**
   * Arguments as far as known. For a call being formed this is a live object that later pushes
   * extend in place: open strings hold what has arrived, numbers and literals appear once ended.
   */
  arguments: Record<string, JsonValue>
  /** `tool_call_id`, when the format carries one and it has been read. */
  id?: string
  /** False for the call whose markup is still open. */
  complete: boolean
}

/**
 * A protocol's streaming reader for one output, made by {@link Protocol.createScanner}. The
 * stream parser (`stream/create-stream-parser.ts`) feeds it chunks and reads its state after each.
 */
export interface StreamScanner {
  /** Consumes the next chunk (any size, split anywhere). */
  write(chunk: string): void
  /**
   * True once the output took a shape this scanner does not follow; the stream parser then
   * re-parses the buffer with `parse` instead (see `stream/reparse-scanner.ts`).
   */
  readonly gaveUp: boolean
  /** `incremental` when state is kept between chunks; `reparse` when the one-shot parser is re-run. */
  readonly reading: 'incremental' | 'reparse'
  /** Calls complete so far (append-only between re-parses, which replace the array). */
  readonly calls: readonly StreamingCall[]
  /** The call being written, if any. */
  forming(): StreamingCall | undefined
  /** The prose so far. */
  text(): string
  /** The protocol read so far when it differs from the scanner's own (`auto` reports the detected one). */
  protocol?(): string | undefined
}

/** A wire format. Ids are stable: they are saved in workspace and session files. */
export interface Protocol {
  /** Stable id, e.g. `openai`, `json`, `xml-tag`. */
  id: string
  /** Display name. */
  label: string
  /** One-line description for the format picker. */
  description: string
  /** True when the model answers with a native assistant message (serialised as JSON), not text. */
  native: boolean
  /** Parse raw output. Must not throw and must run in time linear in `raw.length`. */
  parse(raw: string): ParseResult
  /**
   * Where the earliest plausible call in this format starts in `raw`, or `undefined` when the
   * output shows none. Cheap (a few native searches, one shared marker scan per output; see
   * `shared/detect.ts`), linear, never throws. `auto` iterates the registry with it.
   *
   * @param before only starts before this offset matter (default: anywhere); `auto` passes the
   *   best start found so far so detectors can stop early
   */
  detect(raw: string, before?: number): FormatDetection | undefined
  /**
   * A fresh streaming reader for one output: an incremental scanner where the format has one,
   * otherwise one that re-runs `parse` on a geometric schedule (`stream/reparse-scanner.ts`).
   */
  createScanner(): StreamScanner
  /** Format instructions for the system prompt, with an example call using one of `tools`. */
  instructions(tools: readonly ToolSpec[]): string
  /** An example raw output in this format (for the picker's "load example"). */
  example: string
  /**
   * Writes a well-formed output in this format: prose, then the calls. The inverse of `parse`
   * (parsing the result gives back `calls`); mock models use it through `callTools`.
   */
  render(output: RenderableOutput): string
}

/** What `Protocol.render` writes: optional prose and the calls, in order. */
export interface RenderableOutput {
  text?: string
  calls: readonly { name: string; arguments: Record<string, JsonValue>; id?: string }[]
}

/** Joins prose and rendered calls with blank lines, skipping empty parts. */
export function joinOutput(text: string | undefined, parts: readonly string[]): string {
  return [text, ...parts].filter((part): part is string => part !== undefined && part !== '').join('\n\n')
}
