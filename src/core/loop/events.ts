/**
 * The session log: every transition of the loop appends one immutable event.
 * What the UI shows at cursor k is a pure fold of events 0..k (see `fold.ts`).
 */
import { z } from 'zod'
import { jsonValueSchema, messageSchema, toolCallSchema } from '../messages'
import { toolSpecSchema } from '../tools/types'

const spanSchema = z.object({ start: z.number().int(), end: z.number().int() })

/** Why the loop stopped. */
export const stopReasonSchema = z.enum(['final_answer', 'max_steps', 'repeated_call', 'aborted', 'error'])
export type StopReason = z.infer<typeof stopReasonSchema>

/** The loop phase an event completes. */
export type Phase = 'start' | 'decide' | 'parse' | 'validate' | 'confirm' | 'execute' | 'backfill' | 'stop'

const parsedCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), jsonValueSchema),
  rawArguments: z.string().optional(),
  dependsOn: z.array(z.string()).optional(),
  spans: z.object({ call: spanSchema, name: spanSchema.optional(), arguments: spanSchema.optional() }),
})

const issueSchema = z.object({ code: z.string(), message: z.string(), span: spanSchema.optional() })

/** Verdict of the validate phase for one call. */
export const verdictSchema = z.object({
  callId: z.string(),
  name: z.string(),
  ok: z.boolean(),
  /** Problems found, phrased for the model (e.g. `"city" is required`). Empty when ok. */
  problems: z.array(z.string()),
})
export type Verdict = z.infer<typeof verdictSchema>

/** A flag raised on a replayed message (e.g. `duplicate_tool_call_id`). */
export const anomalySchema = z.object({ code: z.string(), detail: z.string() })
export type AnomalyFlag = z.infer<typeof anomalySchema>

const base = {
  /** Position in the log, from 0. */
  seq: z.number().int().nonnegative(),
  /** Wall-clock time the event was appended, ms since the epoch. */
  at: z.number(),
  /** Anomalies found on this step when the session is a replay. */
  anomalies: z.array(anomalySchema).optional(),
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
  }),
  z.object({
    ...base,
    type: z.literal('model.responded'),
    step: z.number().int(),
    /** The output exactly as received; native messages are serialised as JSON. */
    raw: z.string(),
    durationMs: z.number(),
  }),
  z.object({ ...base, type: z.literal('model.failed'), step: z.number().int(), error: z.string(), durationMs: z.number() }),
  z.object({
    ...base,
    type: z.literal('parse.completed'),
    protocol: z.string(),
    calls: z.array(parsedCallSchema),
    text: z.string(),
    repairs: z.array(issueSchema),
    errors: z.array(issueSchema),
    detection: z.string().optional(),
  }),
  z.object({ ...base, type: z.literal('validate.completed'), verdicts: z.array(verdictSchema) }),
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
    truncated: z.boolean(),
  }),
  z.object({ ...base, type: z.literal('backfill.completed'), messages: z.array(messageSchema) }),
  z.object({ ...base, type: z.literal('loop.stopped'), reason: stopReasonSchema, detail: z.string().optional() }),
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
  'tool.finished': 'execute',
  'backfill.completed': 'backfill',
  'loop.stopped': 'stop',
}

export { parsedCallSchema, toolCallSchema }
