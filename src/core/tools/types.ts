/**
 * What the engine knows about a tool: the serialisable part of a tool definition.
 * The `execute` function itself stays in the sandbox.
 */
import { z } from 'zod'

/** A JSON Schema object (draft 2020-12), as produced by `z.toJSONSchema()` or found in OpenAI `tools`. */
export type JsonSchema = { [key: string]: unknown }

/** A tool as offered to the model. */
export interface ToolSpec {
  /** Unique name the model calls the tool by. */
  name: string
  /** One-line description shown to the model. */
  description: string
  /** JSON Schema of the arguments object. */
  inputSchema: JsonSchema
  /** When true the loop asks the user before running it (confirm phase). */
  dangerous?: boolean
  /** Per-call timeout in ms (default 5000). */
  timeoutMs?: number
  /** Other names the model may call this tool by (e.g. a legacy name). */
  aliases?: string[]
  /** Argument aliases: `{ city_name: 'city' }` renames `city_name` to `city` before validation. */
  argumentAliases?: Record<string, string>
}

export const toolSpecSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  dangerous: z.boolean().optional(),
  timeoutMs: z.number().int().positive().optional(),
  aliases: z.array(z.string()).optional(),
  argumentAliases: z.record(z.string(), z.string()).optional(),
})

/** Default per-call tool timeout, ms. */
export const DEFAULT_TOOL_TIMEOUT_MS = 5000
