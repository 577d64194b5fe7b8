/**
 * The messages between the page and the log-import worker, one union per direction. Both
 * ends parse what they receive with these schemas. Every request carries a `requestId`; every
 * reply (and progress report) carries the same id.
 *
 * The worker keeps the imported conversations: the page only ever receives a compact
 * {@link ConversationSummary} per conversation, and the events of the one it opens, because
 * structured-cloning tens of megabytes of messages back would block the page for seconds.
 */
import { z } from 'zod'
import { sessionEventSchema } from '../core/loop/index'
import { toolSpecSchema } from '../core/tools/types'
import type { Phrase, PhraseRef } from '../core/util'

/** Parameters of a phrase: text, numbers, phrases of the same catalogue, or of another one (with their English). */
const paramsSchema: z.ZodType<Record<string, string | number | Phrase | PhraseRef>> = z.lazy(() => z.record(z.string(), z.union([z.string(), z.number(), phraseRefSchema, nestedPhraseSchema])))
/** A phrase of the catalogue of the phrase it is nested in (`expected {{what}}` holding `an array of messages`). */
const nestedPhraseSchema: z.ZodType<Phrase> = z.lazy(() => z.object({ key: z.string(), params: paramsSchema.optional() }))
/** A phrase of core's catalogues with its English (`PhraseRef`); parameters may be phrases too. */
const phraseRefSchema: z.ZodType<PhraseRef> = z.lazy(() => z.object({ ns: z.string(), key: z.string(), params: paramsSchema.optional(), english: z.string() }))

/** What the page knows about one imported conversation: enough to list, filter and label it. */
export const conversationSummarySchema = z.object({
  /** 0-based position in the log; the key for `replay` requests. */
  index: z.number().int().nonnegative(),
  /** Unique id within the import (the record's own id, or a derived one). */
  id: z.string(),
  /** Short human label in English, e.g. `task 3 · trial 1 · reward 0`. */
  label: z.string(),
  /** `label` as a phrase of core's trace catalogue, when Toolstep worded it (the page shows it translated). */
  labelPhrase: nestedPhraseSchema.optional(),
  /** Messages in the conversation. */
  messageCount: z.number().int().nonnegative(),
  /** Names of the tools the conversation calls, sorted, each once. */
  tools: z.array(z.string()),
  /** Anomaly codes found in it, sorted, each once. */
  anomalyCodes: z.array(z.string()),
  /** Anomalies found in it, counting repeats of a code. */
  anomalyCount: z.number().int().nonnegative(),
})
/** A compact index entry for one imported conversation. */
export type ConversationSummary = z.infer<typeof conversationSummarySchema>

const requestId = z.string()
const toolsSchema = z.array(toolSpecSchema).nullable()

/** Requests from the page. */
export const hostToLogImportSchema = z.discriminatedUnion('type', [
  z.object({
    /** Read `file` and import it, replacing whatever this worker held. */
    type: z.literal('import'),
    requestId,
    /** The file itself (cloned by reference); the worker reads its text, not the page. */
    file: z.instanceof(Blob),
    /** The file's name, so recorded bodies (`NAME.response.sse`) are recognised by it. */
    name: z.string().optional(),
    /**
     * Several files to import as one log (recorded request/response bodies of one session,
     * paired by name; see `importLogFiles`). When given, `file` is the first of them.
     */
    files: z.array(z.object({ name: z.string(), file: z.instanceof(Blob) })).optional(),
    /** Tool definitions to check calls against (a tools file the user loaded), if any. */
    tools: toolsSchema,
  }),
  z.object({
    /** Re-check every conversation with other tool definitions and send the index again. */
    type: z.literal('reindex'),
    requestId,
    tools: toolsSchema,
  }),
  z.object({
    /** The replay events of conversation `index` (`replayEvents` with `tools`, else the log's own). */
    type: z.literal('replay'),
    requestId,
    index: z.number().int().nonnegative(),
    tools: toolsSchema,
  }),
  z.object({
    /**
     * Read `file` as one session to compare (Compare sessions): a Toolstep session file's events,
     * or the replay events of conversation `conversation` (default 0) of a log. What this worker
     * holds is left as it was.
     */
    type: z.literal('read-session'),
    requestId,
    file: z.instanceof(Blob),
    name: z.string().optional(),
    conversation: z.number().int().nonnegative().optional(),
  }),
  z.object({
    /** Indexes of the conversations whose text, labels, tool names or anomaly codes contain `text` (case-insensitive). */
    type: z.literal('search'),
    requestId,
    text: z.string(),
  }),
])
/** A request from the page to the log-import worker. */
export type HostToLogImport = z.infer<typeof hostToLogImportSchema>

/** Stages of an import, in order, for the progress label. */
export const importStageSchema = z.enum(['reading', 'parsing', 'checking', 'listing'])
/** A stage of an import: reading the file, parsing and joining, checking for anomalies, sending the list. */
export type ImportStage = z.infer<typeof importStageSchema>

/** Replies and progress from the worker. */
export const logImportToHostSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('progress'),
    requestId,
    stage: importStageSchema,
    /** Overall fraction done, 0..1, non-decreasing within one request. */
    fraction: z.number().min(0).max(1),
  }),
  z.object({
    /** Part of the index, in order; sent in slices so no single message takes long to receive. */
    type: z.literal('index-slice'),
    requestId,
    conversations: z.array(conversationSummarySchema),
  }),
  z.object({
    /** The import (or reindex) is complete: every slice has been sent. */
    type: z.literal('imported'),
    requestId,
    /** Log format id (`openai-jsonl`, …). */
    format: z.string(),
    /** Number of conversations sent in slices. */
    total: z.number().int().nonnegative(),
  }),
  z.object({
    /**
     * Not a foreign log but a Toolstep session, workspace or tools file: its text, for the page
     * to open as it always has (these files are small next to logs).
     */
    type: z.literal('passthrough'),
    requestId,
    text: z.string(),
  }),
  z.object({
    /** The import failed; `error` says what was recognised and where reading stopped. Nothing was replaced. */
    type: z.literal('failed'),
    requestId,
    error: z.string(),
    /** `error` as a phrase of core's catalogues, for the page to translate. */
    errorPhrase: phraseRefSchema.optional(),
  }),
  z.object({
    type: z.literal('replayed'),
    requestId,
    events: z.array(sessionEventSchema),
  }),
  z.object({
    /** The answer to `read-session`. */
    type: z.literal('session-read'),
    requestId,
    events: z.array(sessionEventSchema),
    /** Log format id (`toolstep-session` for a session file). */
    format: z.string(),
    /** Conversations in the file (1 for a session file). */
    conversations: z.number().int().nonnegative(),
  }),
  z.object({
    type: z.literal('matches'),
    requestId,
    /** Conversation indexes, ascending. */
    indexes: z.array(z.number().int().nonnegative()),
  }),
  z.object({
    /** A request could not be read. */
    type: z.literal('protocol-error'),
    requestId: requestId.optional(),
    message: z.string(),
  }),
])
/** A message from the log-import worker to the page. */
export type LogImportToHost = z.infer<typeof logImportToHostSchema>
