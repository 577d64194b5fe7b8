/**
 * The loop's behaviours, each a setting a user can switch in the UI, the workspace file and
 * `toolstep run`. Defaults follow the hand-written designs Toolstep teaches: lenient where it
 * is safe (coercions, dropped unknown arguments), strict where it changes meaning.
 */
import { z } from 'zod'
import { breakpointSchema } from '../debug/breakpoint-schema'
import { protocols } from '../protocols/index'

/** Fault injected into a tool call, for teaching how the loop copes. */
export const faultSchema = z.object({
  /** Tool name (as resolved) the fault applies to. */
  tool: z.string().min(1),
  /** `fail` throws, `timeout` times out, `latency` delays, `huge` returns 100 000 chars, `garbage` returns unparseable bytes. */
  kind: z.enum(['fail', 'timeout', 'latency', 'huge', 'garbage']),
  /** Only at this model turn (1-based); every turn when absent. */
  atStep: z.number().int().min(1).optional(),
  /** Delay for `latency`, ms (default 1500). */
  latencyMs: z.number().int().min(0).max(60_000).optional(),
})
export type Fault = z.infer<typeof faultSchema>

export const loopSettingsSchema = z.object({
  validation: z
    .object({
      /** Arguments the schema does not declare: dropped with a warning, or rejected. */
      unknownArguments: z.enum(['drop', 'reject']).default('drop'),
      /** Apply safe coercions (`"3"` → 3, `"true"` → true, a JSON-encoded object → object). */
      coerce: z.boolean().default(true),
    })
    .default({ unknownArguments: 'drop', coerce: true }),
  /** Resolve tool names within edit distance 2 of a real one. */
  fuzzyToolNames: z.boolean().default(false),
  /** Corrections sent back after malformed calls before giving up. */
  maxParseRetries: z.number().int().min(0).max(10).default(2),
  /** After the retries: stop with `error`, or take the text as the final answer. */
  onParseFailure: z.enum(['error', 'final_answer']).default('error'),
  /** Protocols tried in order after the main one finds nothing (e.g. `["json", "xml-tag"]`). */
  fallbackProtocols: z.array(z.string()).default([]),
  repeatedCall: z
    .object({
      /** The same tool with the same arguments this many times in a row triggers the action. */
      limit: z.number().int().min(2).max(50).default(3),
      action: z.enum(['stop', 'warn']).default('stop'),
    })
    .default({ limit: 3, action: 'stop' }),
  /** When max steps is hit mid tool use, ask the model once more with tools disabled. */
  finalTurnWithoutTools: z.boolean().default(false),
  /** Several calls in one output: run concurrently, or one after another. */
  execution: z.enum(['parallel', 'sequential']).default('parallel'),
  /** Run a call again once when it timed out. */
  retryOnTimeout: z.boolean().default(false),
  /** Results longer than this many chars are shaped (truncated or summarised). */
  maxResultChars: z.number().int().min(100).max(1_000_000).default(2000),
  /** How long results are shaped: cut with a marker, or passed to tools.ts's `summarize` hook. */
  resultShaping: z.enum(['truncate', 'summarize']).default('truncate'),
  /** Wrap tool results as untrusted content and flag instruction-like text in them. */
  untrustedWrapping: z.boolean().default(false),
  /** Messages sent to the model: the system prompt plus the last N messages (0 = all). */
  contextWindow: z.number().int().min(0).max(10_000).default(0),
  /** The model answers with a ```js block that calls the tools as async functions. */
  codeAsAction: z.boolean().default(false),
  /** Cap on console output written back from code-as-action, chars. */
  maxCodeOutputChars: z.number().int().min(100).max(1_000_000).default(10_000),
  faults: z.array(faultSchema).default([]),
})

/** All loop behaviour settings (every field has a default). */
export type LoopSettings = z.infer<typeof loopSettingsSchema>

/** The defaults, as a value. */
export const DEFAULT_LOOP_SETTINGS: LoopSettings = loopSettingsSchema.parse({})

/**
 * Run settings saved with a workspace (its `settings` field). They live beside the loop settings,
 * not in core/files, so the loop can read them without importing the file format.
 */
export const settingsSchema = z.object({
  /**
   * Wire format id the model speaks: one of the protocol registry's (`auto` included). An id this
   * build does not know is refused where the file is read, not run as "malformed call" every turn.
   */
  protocol: z.enum(protocols.map((p) => p.id) as [string, ...string[]]),
  /** Model turns before stopping with `max_steps`. */
  maxSteps: z.number().int().min(1).max(100),
  /** Extra system prompt text placed before the generated tool instructions. */
  systemPrompt: z.string().default(''),
  /** Loop behaviours (validation policy, retries, parallel calls, …); missing fields take defaults. */
  loop: loopSettingsSchema.default(DEFAULT_LOOP_SETTINGS),
  /** Breakpoints (see core/debug); absent in files written before breakpoints existed. */
  breakpoints: z.array(breakpointSchema).optional(),
})
export type Settings = z.infer<typeof settingsSchema>
/** Settings as written by hand or by older files: `loop` (and its fields) may be missing. */
export type SettingsInput = Omit<Settings, 'loop'> & { loop?: LoopSettings }

/** Fills in defaults for a partial (e.g. an example's or an old file's). Throws a ZodError on invalid values. */
export function loopSettings(partial: unknown): LoopSettings {
  return loopSettingsSchema.parse(partial ?? {})
}
