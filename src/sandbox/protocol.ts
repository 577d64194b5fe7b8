/**
 * The messages exchanged between the host (page or Node main thread) and the sandbox worker,
 * one union per direction. Both ends parse what they receive with these schemas, so a malformed
 * message is a reported error, never a crash. Every request carries a `requestId`; its reply
 * carries the same id.
 */
import { z } from 'zod'
import { jsonValueSchema, messageSchema } from '../core/messages'
import { toolSpecSchema } from '../core/tools/types'

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
})
/** An error located in a user file (1-based `line`/`column` when known). */
export type SourceError = z.infer<typeof sourceErrorSchema>

/** An `Error` flattened for `postMessage`: errors do not survive structured cloning everywhere. */
export const serializedErrorSchema = z.object({
  name: z.string(),
  message: z.string(),
  stack: z.string().optional(),
})
/** An `Error` as plain data: `{name, message, stack}`. */
export type SerializedError = z.infer<typeof serializedErrorSchema>

/** A tool as loaded from `tools.ts`: its {@link ToolSpec} plus the other names it answers to. */
export const loadedToolSchema = toolSpecSchema.extend({ aliases: z.array(z.string()).optional() })
/** A loaded tool: `ToolSpec` plus optional `aliases`. Assignable to `ToolSpec`. */
export type LoadedTool = z.infer<typeof loadedToolSchema>

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

/** Wire form of `ModelRequest`. */
export const modelRequestSchema = z.object({
  messages: z.array(messageSchema),
  tools: z.array(toolSpecSchema),
  step: z.number().int().nonnegative(),
  protocol: z.string(),
})

const requestId = z.string().min(1)

/** Host → sandbox. */
export const hostToSandboxSchema = z.discriminatedUnion('type', [
  /** Compile and evaluate one user file, replacing what was loaded from it before. */
  z.object({ type: z.literal('load'), requestId, file: sourceFileSchema, source: z.string() }),
  /** Call `model.ts`'s default export. */
  z.object({ type: z.literal('call-model'), requestId, request: modelRequestSchema }),
  /** Validate arguments against a tool's schema and run it. `name` may be an alias. */
  z.object({
    type: z.literal('execute-tool'),
    requestId,
    name: z.string(),
    callId: z.string(),
    arguments: z.record(z.string(), jsonValueSchema),
  }),
])
/** A message the host sends to the sandbox. */
export type HostToSandbox = z.infer<typeof hostToSandboxSchema>

/** Sandbox → host. */
export const sandboxToHostSchema = z.discriminatedUnion('type', [
  /** Posted once when the worker has booted; the host starts call timers only after it. */
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('loaded'),
    requestId,
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), tools: z.array(loadedToolSchema), hasModel: z.boolean() }),
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
  /** The sandbox could not understand a request (a bug in the host, not in user code). */
  z.object({ type: z.literal('protocol-error'), requestId: z.string().optional(), message: z.string() }),
])
/** A message the sandbox sends to the host. */
export type SandboxToHost = z.infer<typeof sandboxToHostSchema>
