/**
 * The contract every log importer follows, and the shapes they produce. Importers live one
 * per dialect beside this file and are listed in `registry.ts`.
 */
import type { JsonValue, Message } from '../../messages'
import type { ToolSpec } from '../../tools/types'
import type { Phrase } from '../../util/phrase'

/**
 * Formats `importLog` understands. Ids are stable: they appear in the CLI's `--format`
 * and in saved state, so never rename one.
 */
export const LOG_FORMATS = [
  'openai-messages',
  'openai-conversations',
  'openai-jsonl',
  'openai-stream',
  'openai-responses',
  'openai-responses-stream',
  'anthropic-messages',
  'anthropic-stream',
  'otel-genai',
  'openinference',
  'langfuse',
  'vercel-ai',
  'toolstep-session',
] as const
/** A log format id. */
export type LogFormat = (typeof LOG_FORMATS)[number]

/** What a log said about one message beyond the canonical `Message` (only what the dialect has). */
export interface MessageMeta {
  /**
   * Why generation stopped, exactly as the dialect spells it: OpenAI `finish_reason`
   * (`stop`, `length`, `tool_calls`, …), Anthropic `stop_reason` (`end_turn`, `max_tokens`,
   * `tool_use`), Responses `incomplete_details.reason` (`max_output_tokens`), OTel `finish_reason`,
   * AI SDK `finishReason`. Only on assistant messages.
   */
  finishReason?: string
  /**
   * The model's refusal text, when it declined: OpenAI `message.refusal` / `delta.refusal`,
   * a Responses `refusal` content part, or Anthropic `stop_reason: "refusal"` (then the text, if any).
   */
  refusal?: string
  /**
   * The provider's error message, when the call failed after it started (an `error` event in a
   * stream, `response.failed`, a logged error body). The message holds whatever output came first.
   */
  providerError?: string
  /**
   * Names of the tools the request that produced this assistant message offered, in request
   * order (`[]` when it offered none). Absent when the log did not record the request.
   */
  offeredTools?: string[]
  /**
   * The response exactly as recorded, when the log kept it in a form worth showing raw: a
   * server-sent event stream's chunks, or a response body. Shown as the turn's raw output.
   */
  recorded?: RecordedResponse
}

/** A response body as it was recorded: a whole body, or the chunks of a stream. */
export interface RecordedResponse {
  /** `sse`: a text/event-stream body; `jsonl`: one event per line; `json`: one body. */
  kind: 'sse' | 'jsonl' | 'json'
  /** The body text as recorded (for a stream, every chunk in order). */
  text: string
  /**
   * The stream's chunks as received, each with its offset from the first chunk in ms when the
   * log kept a timestamp (absent otherwise). Only for `sse` and `jsonl`.
   */
  chunks?: { text: string; atMs?: number }[]
}

/** One conversation found in a log. */
export interface ImportedConversation {
  /** Unique within the import, e.g. `task-3-trial-1`, the record's own `id`, or the 0-based index. */
  id: string
  /** Short human label in English, e.g. `task 3 · trial 1 · reward 0`. */
  label: string
  /**
   * `label` as a phrase of `TRACE_TEXT` (`labelTask`, …) when Toolstep worded part of it, which
   * the UI translates; absent when the label is the log's own id or name.
   */
  labelPhrase?: Phrase
  /** The conversation in canonical form, in log order. */
  messages: Message[]
  /** Tool definitions carried by the log for this conversation, when it has any. */
  tools?: ToolSpec[]
  /** JSON path of the messages in the file, e.g. `[3].traj`, `line 4: request.messages` (`''` when the file is the array). */
  path: string
  /** The record's scalar fields (e.g. `task_id`, `trial`, `reward`), for display and search. */
  meta: Record<string, string | number | boolean | null>
  /** Per-message facts the dialect logged (e.g. finish reasons), keyed by 0-based message index. Absent when there are none. */
  messageMeta?: Record<number, MessageMeta>
}

/** A parsed log file: one JSON value, or one JSON value per non-empty line (JSONL, or `data:` lines of a server-sent event stream). */
export type LogDocument =
  | {
      kind: 'json'
      /** The whole file as one JSON value. */
      value: JsonValue
    }
  | {
      kind: 'lines'
      /** Each non-empty line's value with its 1-based line number; SSE `[DONE]` markers are dropped. */
      lines: { value: JsonValue; line: number }[]
      /** True when the lines were `data: …` server-sent events. */
      sse: boolean
    }

/** How sure an importer is that it can read a document. */
export interface Detection {
  /** 0..1; `auto` picks the highest, and ignores anything below 0.3. */
  confidence: number
  /** What was recognised, as a noun phrase: `an Anthropic Messages request (tool_use blocks)`. Used in errors. */
  reason: string
  /** `reason` as a phrase of `TRACE_TEXT` (trace-text.ts), which the UI translates; every built-in importer gives one. */
  phrase?: Phrase
}

/** Progress of an importer: a conversation it finished (if any) and how far through the document it is. */
export interface ImportStep {
  /** Absent on steps that only report progress (e.g. while an importer groups records before it can emit). */
  conversation?: ImportedConversation
  /** 0..1, non-decreasing: the share of the document's records read so far. */
  fraction: number
}

/** A dialect importer. Pure. */
export interface Importer {
  /** Stable id, also the `--format` value. */
  readonly id: LogFormat
  /** Human name of the dialect, e.g. `Anthropic Messages`. */
  readonly title: string
  /** Says whether the document looks like this dialect; never throws. Looks at a bounded sample, so it is cheap. */
  detect(document: LogDocument): Detection | undefined
  /**
   * Reads conversations lazily, so a caller can pause between them. Takes time linear in the document.
   *
   * @throws BadField (from `openai-log.ts`) naming the JSON path where reading stopped; the
   *   public entry points turn it into an error value.
   */
  read(document: LogDocument): Generator<ImportStep, void, void>
}
