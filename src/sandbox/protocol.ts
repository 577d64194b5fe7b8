/**
 * The messages exchanged between the host (page or Node main thread) and the sandbox worker,
 * one union per direction. Both ends parse what they receive with these schemas, so a malformed
 * message is a reported error, never a crash. Every request carries a `requestId`; its reply
 * carries the same id.
 */
import { z } from 'zod'
import { jsonValueSchema, messageSchema, type JsonValue, type Message } from '../core/messages'
import { toolSpecSchema } from '../core/tools/types'
import { phraseSchema } from '../core/loop/events'
import type { TextPartsRef } from './text-parts'

/** The two user files the sandbox runs. */
export const sourceFileSchema = z.enum(['tools.ts', 'model.ts'])
/** Name of a user file: `'tools.ts'` or `'model.ts'`. */
export type SourceFile = z.infer<typeof sourceFileSchema>

/** An error that happened in user code, located in its file when the position is known. */
export const sourceErrorSchema = z.object({
  /** File the error is in. */
  file: sourceFileSchema,
  /** 1-based line in the user's source, when known. */
  line: z.number().int().positive().optional(),
  /** 1-based column in the user's source, when known. */
  column: z.number().int().positive().optional(),
  /** Human-readable message, without the location. */
  message: z.string(),
  /** `message` as a phrase of the sandbox's catalogue (`ns: 'sandbox'`), when the sandbox itself said it. */
  phrase: phraseSchema.optional(),
})
/** An error located in a user file (1-based `line`/`column` when known). */
export type SourceError = z.infer<typeof sourceErrorSchema>

/** An `Error` flattened for `postMessage`: errors do not survive structured cloning everywhere. */
export const serializedErrorSchema = z.object({
  name: z.string(),
  message: z.string(),
  stack: z.string().optional(),
  /** `message` as a phrase of the sandbox's catalogue (`ns: 'sandbox'`), when the sandbox itself found the problem. */
  phrase: phraseSchema.optional(),
})
/** An `Error` as plain data: `{name, message, stack}`. */
export type SerializedError = z.infer<typeof serializedErrorSchema>

/**
 * A tool as loaded from `tools.ts`: its {@link ToolSpec}, including the other names it answers to
 * (`aliases`) and the argument renames applied before validation (`argumentAliases`).
 */
export const loadedToolSchema = toolSpecSchema
/** A loaded tool: a `ToolSpec` (with `aliases` / `argumentAliases` when the tool declares them). */
export type LoadedTool = z.infer<typeof loadedToolSchema>

/** Which optional hooks `tools.ts` exports. */
export const hooksSchema = z.object({
  /** `export function route({ messages, tools, step })`: picks the tools offered at each step. */
  route: z.boolean(),
  /** `export function summarize(result, { tool, maxChars })`: shortens long tool results. */
  summarize: z.boolean(),
})
/** Which optional hooks `tools.ts` exports. */
export type Hooks = z.infer<typeof hooksSchema>

/** One tool call made by code-as-action code (wire form of `CodeToolCall`). */
export const codeToolCallSchema = z.object({
  /** Tool name as called (`weather.current` for a namespaced tool). */
  name: z.string(),
  /** Arguments as passed by the code, made JSON-safe. */
  arguments: z.record(z.string(), z.unknown()),
  /** Result as text: a string as-is, anything else as JSON. */
  result: z.string().optional(),
  /** Error message when the call failed. */
  error: z.string().optional(),
  /** Wall time of the call, ms. */
  durationMs: z.number().nonnegative(),
})

/** What the worker reports when a code block has finished (the host adds timing and `timedOut`). */
export const codeRunResultSchema = z.object({
  /** False when the code threw (or could not be compiled). */
  ok: z.boolean(),
  /** Captured console lines joined with `\n`, capped at the requested `maxOutputChars`. */
  output: z.string(),
  /** True when `output` was cut at the cap. */
  truncated: z.boolean(),
  /** Message of the error the code threw, with its line in the block when known. */
  error: z.string().optional(),
  /** Tool calls the code made, in the order they were made. */
  calls: z.array(codeToolCallSchema),
})
/** Wire form of a finished code block. */
export type CodeRunResult = z.infer<typeof codeRunResultSchema>

/** OpenAI Chat Completions assistant message, as `model.ts` may return it. */
export const nativeAssistantMessageSchema = z.object({
  role: z.literal('assistant').optional(),
  content: z.string().nullable(),
  tool_calls: z
    .array(
      z.object({
        id: z.string().optional(),
        type: z.literal('function').optional(),
        function: z.object({ name: z.string(), arguments: z.string() }),
      }),
    )
    .optional(),
})

/** Wire form of `ModelOutput`. */
export const modelOutputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), raw: z.string() }),
  z.object({ kind: z.literal('message'), message: nativeAssistantMessageSchema }),
])

/**
 * How the conversation the worker keeps changes with a request: its first `keep` messages stay
 * (the rest are dropped), then `append` follows. A long run sends each message once, not the
 * whole conversation at every step (which made a run's cost grow with the square of its length).
 */
export const conversationUpdateSchema = z.object({
  /** Messages of the worker's conversation that stay; more than it holds is a protocol error. */
  keep: z.number().int().nonnegative(),
  /**
   * Messages added after them, validated once, on arrival: posted as JSON text (an array), or as
   * the array itself when they cannot be written as JSON. Text crosses to the worker as one copy;
   * the structured clone of a turn of 100 000 calls, or of one call with 500 000 argument
   * objects, blocked the page for 300–500 ms, about five times what writing the text costs.
   */
  append: z.union([
    z.array(messageSchema),
    z
      .string()
      .transform((text, context): unknown => {
        try {
          return JSON.parse(text)
        } catch (error) {
          context.addIssue({ code: 'custom', message: `The appended messages are not JSON: ${error instanceof Error ? error.message : String(error)}` })
          return z.NEVER
        }
      })
      .pipe(z.array(messageSchema)),
  ]),
})
/** Wire form of a conversation update (see {@link conversationUpdateSchema}). */
export type ConversationUpdate = z.infer<typeof conversationUpdateSchema>

/** One piece of the request's messages: the kept conversation's messages `[from, to)`, or a message of its own. */
export const requestPartSchema = z.union([
  z.object({ from: z.number().int().nonnegative(), to: z.number().int().nonnegative() }),
  z.object({ message: messageSchema }),
])

/**
 * Wire form of `ModelRequest`. The messages the user code receives are the concatenation of
 * `parts`, read after `conversation` was applied. `tools` is absent when the tools are the same
 * as in the previous request to this worker.
 */
export const modelRequestSchema = z.object({
  conversation: conversationUpdateSchema,
  parts: z.array(requestPartSchema),
  tools: z.array(toolSpecSchema).optional(),
  step: z.number().int().nonnegative(),
  protocol: z.string(),
})
/** A model request as the worker reads it, its appended messages parsed (see {@link modelRequestSchema}). */
export type WireModelRequest = z.output<typeof modelRequestSchema>
/**
 * A model request as the host posts it: the appended messages may be JSON text, or a reference
 * to that text posted before it in `text-part` messages (see text-parts.ts), which the worker
 * puts in its place before it reads the request.
 */
export type PostedModelRequest = Omit<WireModelRequest, 'conversation'> & { conversation: { keep: number; append: string | Message[] | TextPartsRef } }

const requestId = z.string().min(1)
/**
 * The host's timeout of the request, ms. A sandbox that can interrupt running code (the browser's
 * QuickJS VM) stops code that runs past it without a pause, and answers before the host's timer.
 */
const timeoutMs = z.number().positive().optional()

/** Host → sandbox. */
export const hostToSandboxSchema = z.discriminatedUnion('type', [
  /** Compile and evaluate one user file, replacing what was loaded from it before. */
  z.object({ type: z.literal('load'), requestId, timeoutMs, file: sourceFileSchema, source: z.string() }),
  /**
   * One part of the long text of a request that follows (a `call-model` or `route` request's
   * appended messages, an `execute-tools` batch's calls; see text-parts.ts): `key` groups the
   * parts of one request. Not answered.
   */
  z.object({ type: z.literal('text-part'), key: z.string(), text: z.string() }),
  /** Call `model.ts`'s default export. */
  z.object({ type: z.literal('call-model'), requestId, timeoutMs, request: modelRequestSchema }),
  /** Validate arguments against a tool's schema and run it. `name` may be an alias. */
  z.object({
    type: z.literal('execute-tool'),
    requestId,
    timeoutMs,
    name: z.string(),
    callId: z.string(),
    arguments: z.record(z.string(), jsonValueSchema),
  }),
  /**
   * Run the calls of one turn: `calls` is the JSON text of an array of
   * `{ callId, name, arguments, timeoutMs }` (a {@link BatchCall} each), one string for the whole
   * batch so that neither end walks 100 000 argument objects with a schema (posted, a long text may
   * be a reference to `text-part`s sent before, as a model request's may). Each call keeps its
   * own timeout, counted from when it starts in the sandbox. Answered by `tool-results`.
   */
  z.object({ type: z.literal('execute-tools'), requestId, calls: z.string() }),
  /** Call the `route` hook of `tools.ts`. */
  z.object({ type: z.literal('route'), requestId, timeoutMs, request: modelRequestSchema }),
  /** Call the `summarize` hook of `tools.ts`. `maxChars` is the result budget, characters. */
  z.object({
    type: z.literal('summarize'),
    requestId,
    timeoutMs,
    result: z.string(),
    tool: z.string(),
    maxChars: z.number().int().nonnegative(),
  }),
  /** Run a code-as-action block with the tools in scope. `maxOutputChars` caps captured console output. */
  z.object({ type: z.literal('run-code'), requestId, timeoutMs, code: z.string(), maxOutputChars: z.number().int().nonnegative() }),
])
/** One call of an `execute-tools` batch. `timeoutMs` counts from when the call starts in the sandbox. */
export interface BatchCall {
  callId: string
  /** Tool name or alias. */
  name: string
  arguments: Record<string, JsonValue>
  /** ms, > 0. */
  timeoutMs: number
}

/** The result of one tool call: its text, or the error (thrown by the tool or found in its arguments). */
export const executeResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.string() }),
  z.object({ ok: z.literal(false), error: serializedErrorSchema }),
])

/** One finished call of a batch, by its position in the batch. */
export const batchResultSchema = z.object({
  index: z.number().int().nonnegative(),
  result: executeResultSchema,
  /** Time from the call's start in the sandbox to its end, ms. */
  durationMs: z.number().nonnegative(),
  /** True when the sandbox gave up waiting for the call at its timeout (it never settled). */
  timedOut: z.boolean().optional(),
})
/** One finished call of an `execute-tools` batch (see {@link batchResultSchema}). */
export type BatchResult = z.infer<typeof batchResultSchema>

/** A message the host sends to the sandbox. */
export type HostToSandbox = Posted<z.output<typeof hostToSandboxSchema>>
/** A request as the host posts it: a model request's appended messages may be JSON text. */
type Posted<T> = T extends { request: WireModelRequest }
  ? Omit<T, 'request'> & { request: PostedModelRequest }
  : T extends { type: 'execute-tools' }
    ? Omit<T, 'calls'> & { calls: string | TextPartsRef }
    : T extends { type: 'summarize' }
      ? Omit<T, 'result'> & { result: string | TextPartsRef }
      : T

/** Sandbox → host. */
export const sandboxToHostSchema = z.discriminatedUnion('type', [
  /** Posted once when the worker has booted; the host starts call timers only after it. */
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('loaded'),
    requestId,
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), tools: z.array(loadedToolSchema), hasModel: z.boolean(), hooks: hooksSchema }),
      z.object({ ok: z.literal(false), error: sourceErrorSchema }),
    ]),
  }),
  z.object({
    type: z.literal('model-result'),
    requestId,
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), output: modelOutputSchema }),
      z.object({ ok: z.literal(false), error: serializedErrorSchema }),
    ]),
  }),
  z.object({
    type: z.literal('tool-result'),
    requestId,
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), result: z.string() }),
      z.object({ ok: z.literal(false), error: serializedErrorSchema }),
    ]),
  }),
  /**
   * Progress of an `execute-tools` batch: the calls that finished since the last report, and how
   * many calls (in batch order) have been started so far. Sent at least once per slice of calls
   * the sandbox starts; the one with `done` (every call finished) ends the request.
   */
  z.object({
    type: z.literal('tool-results'),
    requestId,
    started: z.number().int().nonnegative(),
    done: z.boolean(),
    results: z.array(batchResultSchema),
  }),
  z.object({
    type: z.literal('route-result'),
    requestId,
    result: z.discriminatedUnion('ok', [
      /** `names` is null when tools.ts has no `route` hook. */
      z.object({ ok: z.literal(true), names: z.array(z.string()).nullable() }),
      z.object({ ok: z.literal(false), error: serializedErrorSchema }),
    ]),
  }),
  z.object({
    type: z.literal('summarize-result'),
    requestId,
    result: z.discriminatedUnion('ok', [
      /** `summary` is null when tools.ts has no `summarize` hook. */
      z.object({ ok: z.literal(true), summary: z.string().nullable() }),
      z.object({ ok: z.literal(false), error: serializedErrorSchema }),
    ]),
  }),
  /**
   * Sent while a code block runs, so that what it printed and called survives a timeout (the
   * worker is killed, so the final result never comes). `output` is the text appended to the
   * captured output (already capped); `call` is a finished tool call.
   */
  z.object({
    type: z.literal('code-progress'),
    requestId,
    output: z.string().optional(),
    truncated: z.boolean().optional(),
    call: codeToolCallSchema.optional(),
  }),
  z.object({ type: z.literal('code-result'), requestId, result: codeRunResultSchema }),
  /**
   * The sandbox cannot go on (its VM ran out of memory, or the engine failed); the host stops it.
   * Calls in flight then end with an error naming the file and phase; `limitMb` is the VM's cap.
   */
  z.object({
    type: z.literal('crashed'),
    outOfMemory: z.boolean(),
    limitMb: z.number().optional(),
    reason: z.string(),
    /** See `WorkerCrash.leftBy`. */
    leftBy: z.object({ file: z.enum(['tools.ts', 'model.ts', 'The code block']), after: z.string() }).optional(),
  }),
  /** The sandbox could not understand a request (a bug in the host, not in user code). */
  z.object({ type: z.literal('protocol-error'), requestId: z.string().optional(), message: z.string() }),
])
/** A message the sandbox sends to the host. */
export type SandboxToHost = z.infer<typeof sandboxToHostSchema>

/**
 * A message as the sandbox posts it: a long model output or tool result comes as `text-part` messages first
 * (reading a 15 MB string from one message held the page for ~120 ms; parts of 1 M chars take
 * a few ms each, one task each), and the `model-result` (or `tool-results`) names them in place of its text. The
 * host puts the text back (`joinPostedParts`) before it reads the message.
 */
export type PostedSandboxToHost =
  | SandboxToHost
  | { type: 'text-part'; key: string; text: string }
  | { type: 'model-result'; requestId: string; result: { ok: true; output: { kind: 'text'; raw: TextPartsRef } } }
  | (Omit<Extract<SandboxToHost, { type: 'tool-results' }>, 'results'> & { results: (BatchResult | PostedBatchResult)[] })

/** A finished call of a batch as the sandbox posts it: a long result may name its `text-part`s instead (see {@link PostedSandboxToHost}). */
export type PostedBatchResult = Omit<BatchResult, 'result'> & { result: { ok: true; result: TextPartsRef } }

/**
 * Prefix of the label the child writes as it takes in a request (`received:<requestId>`). A
 * request whose label never appeared did not reach the child's code: something left running
 * before it (a tool's microtask loop after it returned) kept the child from reading it.
 */
export const RECEIVED_LABEL = 'received:'
