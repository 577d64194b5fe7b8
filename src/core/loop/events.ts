/**
 * The session log: every transition of the loop appends one immutable event.
 * What the UI shows at cursor k is a pure fold of events 0..k (`fold` in `reducer.ts`).
 */
import { z } from 'zod'
import { jsonValueSchema, messageSchema, toolCallSchema } from '../messages'
import { toolSpecSchema } from '../tools/types'
import { loopSettingsSchema } from './settings'

const spanSchema = z.object({ start: z.number().int(), end: z.number().int() })

/** Why the loop stopped. */
export const stopReasonSchema = z.enum(['final_answer', 'max_steps', 'repeated_call', 'aborted', 'error'])
export type StopReason = z.infer<typeof stopReasonSchema>

/**
 * How the validate phase judges calls.
 * - `live`: what a run does — aliases, name normalisation, fuzzy names (when enabled), argument
 *   coercions and dropped unknowns, confirmation of dangerous tools, repeated-call detection.
 * - `as-logged`: for a replayed log — report what the logging system did: the tool is looked up
 *   by its exact name (own properties only) and the arguments are checked against its JSON Schema
 *   as written, with no aliasing, normalisation, coercion or fuzzy resolution; call ids are kept
 *   as logged; the backfill is the log's own messages.
 */
export const validationPolicySchema = z.enum(['live', 'as-logged'])
export type ValidationPolicy = z.infer<typeof validationPolicySchema>

/** The loop phase an event completes. */
export type Phase = 'start' | 'decide' | 'parse' | 'validate' | 'confirm' | 'execute' | 'backfill' | 'stop' | 'edit'

const parsedCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), jsonValueSchema),
  rawArguments: z.string().optional(),
  dependsOn: z.array(z.string()).optional(),
  spans: z.object({ call: spanSchema, name: spanSchema.optional(), arguments: spanSchema.optional() }),
  /** A native call whose arguments could not be read: what was wrong (it gets this as an error result). */
  argumentsError: z.string().optional(),
})

/**
 * A phrase of a core catalogue (see core/util/phrase.ts), the text of a `message` or `detail` as
 * a key and its parameters, for the UI to translate. Parameters may nest phrases: of the same
 * catalogue, or of catalogue `ns` (UI: `core.<ns>.<key>`). Optional everywhere: files written
 * before it existed have only the English text, which is shown then.
 */
export type PhraseShape = { key: string; ns?: string; params?: Record<string, string | number | PhraseShape> }
export const phraseSchema: z.ZodType<PhraseShape> = z.lazy(() =>
  z.object({ key: z.string(), ns: z.string().optional(), params: z.record(z.string(), z.union([z.string(), z.number(), phraseSchema])).optional() }),
)

/** A repair or parse error; `phrase` is its `message` as a phrase of `PARSE_TEXT` (absent in older files). */
const issueSchema = z.object({ code: z.string(), message: z.string(), phrase: phraseSchema.optional(), span: spanSchema.optional() })

/** Verdict of the validate phase for one call. */
export const verdictSchema = z.object({
  callId: z.string(),
  /** The tool's real name when the call resolved to one, else the name as written. */
  name: z.string(),
  ok: z.boolean(),
  /** Problems found, phrased for the model (e.g. `"city" is required`). Empty when ok. */
  problems: z.array(z.string()),
  /** How the name was resolved (`exact`, `alias`, `normalized`, `fuzzy`); absent when it was not. */
  resolution: z.enum(['exact', 'alias', 'normalized', 'fuzzy']).optional(),
  /** The arguments the tool will receive, after aliases, dropped unknowns and coercions. */
  arguments: z.record(z.string(), jsonValueSchema).optional(),
  /** Changes applied to the arguments (`"days": "3" → 3`). */
  coercions: z.array(z.string()).optional(),
  /** Non-fatal notes (`dropped unknown argument "foo"`). */
  warnings: z.array(z.string()).optional(),
  /** The tool is marked dangerous: the user must approve the call. */
  confirm: z.boolean().optional(),
  /**
   * `problems`, `coercions` and `warnings` as phrases of `VALIDATION_TEXT`, index for index, for
   * the UI to translate (the strings stay what the model is told). Absent in older files.
   */
  phrases: z
    .object({ problems: z.array(phraseSchema), coercions: z.array(phraseSchema).optional(), warnings: z.array(phraseSchema).optional() })
    .optional(),
})
export type Verdict = z.infer<typeof verdictSchema>

/** A flag raised on a replayed message (e.g. `duplicate_tool_call_id`); `phrase` is `detail` as a key of `TRACE_TEXT`. */
export const anomalySchema = z.object({ code: z.string(), detail: z.string(), phrase: phraseSchema.optional() })
export type AnomalyFlag = z.infer<typeof anomalySchema>

/** A live-run warning that did not stop the loop (e.g. `repeated_call` in warn mode); `phrase` is `detail` as a key of `LOOP_TEXT`. */
export const warningSchema = z.object({ code: z.string(), detail: z.string(), phrase: phraseSchema.optional() })
export type Warning = z.infer<typeof warningSchema>

/** The user's answer to a confirmation request for one call. */
export const decisionSchema = z.object({
  callId: z.string(),
  decision: z.enum(['approve', 'deny', 'edit']),
  /** The edited arguments, for `edit`. */
  arguments: z.record(z.string(), jsonValueSchema).optional(),
  /** For `deny`: why, as the user typed it; written back to the model with the error result. */
  reason: z.string().optional(),
})
export type Decision = z.infer<typeof decisionSchema>

const spanTextSchema = z.object({ start: z.number().int(), end: z.number().int(), text: z.string() })

const base = {
  /** Position in the log, from 0. */
  seq: z.number().int().nonnegative(),
  /** Wall-clock time the event was appended, ms since the epoch. */
  at: z.number(),
  /** Anomalies found on this step when the session is a replay. */
  anomalies: z.array(anomalySchema).optional(),
  /** Warnings raised on this step of a live run. */
  warnings: z.array(warningSchema).optional(),
}

export const sessionEventSchema = z.discriminatedUnion('type', [
  z.object({
    ...base,
    type: z.literal('session.started'),
    source: z.enum(['live', 'replay']),
    protocol: z.string(),
    tools: z.array(toolSpecSchema),
    /** The conversation so far: system prompt and user input (live), or the log's leading messages (replay). */
    messages: z.array(messageSchema),
    maxSteps: z.number().int().positive(),
    /** Loop behaviours in force; defaults when absent. */
    settings: loopSettingsSchema.optional(),
    /** The user's own system prompt text, kept so the prompt can be rebuilt for routed tools. */
    systemPromptBase: z.string().optional(),
    /** How calls are validated; absent in files written before it existed: `as-logged` for a replay, else `live`. */
    validationPolicy: validationPolicySchema.optional(),
  }),
  z.object({
    ...base,
    type: z.literal('model.responded'),
    step: z.number().int(),
    /** The output exactly as received; native messages are serialised as JSON. */
    raw: z.string(),
    durationMs: z.number(),
    /** Names of the tools offered at this decide (after routing); all tools when absent. */
    offeredTools: z.array(z.string()).optional(),
    /** The slice `[from, to)` of the conversation sent (the system prompt is always sent too); all when absent. */
    window: z.object({ from: z.number().int(), to: z.number().int() }).optional(),
    /** The last turn after max steps, asked with tools disabled. */
    finalTurn: z.boolean().optional(),
    /** Replays only: the response as the log recorded it (a stream's chunks, or the body), beside `raw`'s wire shape. */
    recorded: z
      .object({
        kind: z.enum(['sse', 'jsonl', 'json']),
        text: z.string(),
        /** Chunks in order; `atMs` is the offset from the first chunk when the log kept timestamps. */
        chunks: z.array(z.object({ text: z.string(), atMs: z.number().optional() })).optional(),
      })
      .optional(),
    /** The provider's `finish_reason` (`stop`, `tool_calls`, `length` when the token limit cut the output), when known. */
    finishReason: z.string().optional(),
    /** Time to first token of a streamed endpoint response, ms after the request was sent. */
    firstTokenMs: z.number().optional(),
    /** The raw SSE `data:` payloads of a streamed endpoint response, with arrival times (ms after the request). */
    chunks: z.array(z.object({ atMs: z.number(), data: z.string() })).optional(),
  }),
  z.object({
    ...base,
    type: z.literal('model.failed'),
    step: z.number().int(),
    error: z.string(),
    durationMs: z.number(),
    /** `error` as a phrase of another catalogue (`ns`), when the error carried one (absent in older files). */
    errorPhrase: phraseSchema.optional(),
  }),
  z.object({
    ...base,
    type: z.literal('parse.completed'),
    protocol: z.string(),
    calls: z.array(parsedCallSchema),
    text: z.string(),
    repairs: z.array(issueSchema),
    errors: z.array(issueSchema),
    detection: z.string().optional(),
    /** `detection` as a phrase of `PARSE_TEXT`, when it has one. */
    detectionPhrase: phraseSchema.optional(),
  }),
  z.object({
    ...base,
    type: z.literal('validate.completed'),
    verdicts: z.array(verdictSchema),
    /** Set when repeated-call detection stops the loop. */
    repeated: z.object({ name: z.string(), count: z.number().int() }).optional(),
  }),
  z.object({ ...base, type: z.literal('confirm.requested'), callIds: z.array(z.string()) }),
  z.object({ ...base, type: z.literal('confirm.decided'), decisions: z.array(decisionSchema) }),
  z.object({
    ...base,
    type: z.literal('tool.finished'),
    callId: z.string(),
    name: z.string(),
    /** Result as text (JSON-encoded when the tool returned a non-string). Absent on error. */
    result: z.string().optional(),
    /** Error message when the tool threw, timed out, or was not run. */
    error: z.string().optional(),
    durationMs: z.number(),
    timedOut: z.boolean(),
    /** The call's time limit, ms, when it timed out (absent in sessions recorded before it was kept). */
    timeoutMs: z.number().optional(),
    truncated: z.boolean(),
    /** Position of the call in the model's output (issue order), from 0. */
    index: z.number().int().optional(),
    /** When the call started, ms after the execute phase began (for lanes). */
    startOffsetMs: z.number().optional(),
    /** Times the call was run (2 after a retry on timeout). */
    attempts: z.number().int().optional(),
    /** The attempts before the last one, in order (only when a setting asked for a retry). */
    earlierAttempts: z.array(z.object({ error: z.string(), durationMs: z.number(), timedOut: z.boolean() })).optional(),
    /** Fault injected into this call. */
    fault: z.string().optional(),
    /** Length of the result before shaping, chars. */
    originalChars: z.number().int().optional(),
    /** The result was replaced by the `summarize` hook's output. */
    summarized: z.boolean().optional(),
    /** The result was wrapped as untrusted content. */
    wrapped: z.boolean().optional(),
    /** Instruction-like text found in the result (offsets into `result`). */
    injection: z.array(spanTextSchema).optional(),
    /** The user declined the call. */
    declined: z.boolean().optional(),
    /** For a call made by code-as-action code: the id of the code block's call. Not backfilled on its own. */
    parentCallId: z.string().optional(),
    arguments: z.record(z.string(), jsonValueSchema).optional(),
  }),
  z.object({ ...base, type: z.literal('backfill.completed'), messages: z.array(messageSchema) }),
  z.object({
    ...base,
    /**
     * The user changed what the model said or what a tool returned, and the run went on from
     * there (edit and continue): every event after this one is a fork of the original run.
     */
    type: z.literal('edit.applied'),
    /** `model_output`: the raw output of the decide at `editedSeq`, re-parsed next; `tool_result`: a result, backfilled next. */
    target: z.enum(['model_output', 'tool_result']),
    /** `seq` of the edited `model.responded` or `tool.finished`, earlier in this log (which keeps it unchanged). */
    editedSeq: z.number().int().nonnegative(),
    /** The call whose result was edited (`tool_result` only). */
    callId: z.string().optional(),
    /** The tool whose result was edited (`tool_result` only). */
    name: z.string().optional(),
    /** The content before the edit: the raw output, or the result (or error) text. */
    original: z.string(),
    /** The original was the tool's error, not a result (`tool_result` only). */
    originalError: z.boolean().optional(),
    /** The content after the edit. */
    edited: z.string(),
    /** The edited content is written back as the tool's error (`tool_result` only). */
    isError: z.boolean().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('loop.stopped'),
    reason: stopReasonSchema,
    detail: z.string().optional(),
    /** `detail` as a phrase of `LOOP_TEXT` (absent in older files, and when the detail came from elsewhere). */
    phrase: phraseSchema.optional(),
  }),
])

export type SessionEvent = z.infer<typeof sessionEventSchema>
export type SessionEventType = SessionEvent['type']
/** An event before the log assigns `seq` and `at`. */
export type NewSessionEvent = SessionEvent extends infer E ? (E extends SessionEvent ? Omit<E, 'seq' | 'at'> : never) : never

/** The phase each event type completes; the timeline's `data-phase`. */
export const PHASE_OF: Record<SessionEventType, Phase> = {
  'session.started': 'start',
  'model.responded': 'decide',
  'model.failed': 'decide',
  'parse.completed': 'parse',
  'validate.completed': 'validate',
  'confirm.requested': 'confirm',
  'confirm.decided': 'confirm',
  'tool.finished': 'execute',
  'backfill.completed': 'backfill',
  'loop.stopped': 'stop',
  'edit.applied': 'edit',
}

export { parsedCallSchema, toolCallSchema }
