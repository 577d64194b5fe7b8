/**
 * The contract every wire-format protocol implements. A protocol turns raw model
 * output into calls and prose, and renders its own format instructions.
 */
import type { JsonValue } from '../messages'
import type { ToolSpec } from '../tools/types'

/** Half-open range `[start, end)` of UTF-16 code-unit offsets into the raw output (JS string indices). */
export interface Span {
  start: number
  end: number
}

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
}

/** A named leniency that was applied while parsing (e.g. `fence_stripped`, `single_quotes`, `trailing_comma`). */
export interface Repair {
  code: string
  /** Human-readable explanation. */
  message: string
  /** Where in the raw output it applied, when known. */
  span?: Span
}

/** A machine-readable parse problem; `message` is phrased so it can be sent back to the model. */
export interface ParseError {
  /** e.g. `invalid_json`, `truncated`, `missing_name`, `unclosed_tag`. */
  code: string
  message: string
  span?: Span
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
