/**
 * Eval cases saved in a workspace (`cases`): an input, optionally the model's outputs scripted
 * turn by turn, and assertions over the run, named as tool-use eval tools name them.
 */
import { z } from 'zod'
import { jsonValueSchema } from '../messages'
import { stopReasonSchema } from '../loop/events'

const toolName = z.string().min(1)

/** An OpenAI Chat Completions assistant message, as a scripted output. */
const scriptedMessageSchema = z.object({
  role: z.literal('assistant').optional(),
  content: z.string().nullable(),
  tool_calls: z
    .array(z.object({ id: z.string().optional(), type: z.literal('function').optional(), function: z.object({ name: z.string(), arguments: z.string() }) }))
    .optional(),
})

export const assertionSchema = z.discriminatedUnion('type', [
  /** The model called this tool at least once. */
  z.object({ type: z.literal('tool-used'), tool: toolName }),
  /** The model never called this tool. */
  z.object({ type: z.literal('tool-not-used'), tool: toolName }),
  /**
   * The tools called: `ordered` — these tools appear in this order (other calls may come between,
   * unless `exact`); `set` — each of these tools was called, in any order (and no other, if `exact`).
   */
  z.object({ type: z.literal('tool-sequence'), tools: z.array(toolName).min(1), order: z.enum(['ordered', 'set']).default('ordered'), exact: z.boolean().default(false) }),
  /**
   * Some call to `tool` had arguments containing `arguments` (a partial object, compared deeply),
   * and/or valid against `schema` (a JSON Schema).
   */
  z
    .object({ type: z.literal('tool-args-match'), tool: toolName, arguments: z.record(z.string(), jsonValueSchema).optional(), schema: z.record(z.string(), jsonValueSchema).optional() })
    .refine((a) => a.arguments !== undefined || a.schema !== undefined, { message: 'tool-args-match needs "arguments" or "schema"' }),
  /** Model turns taken: at most `max`, or exactly `equals`. */
  z
    .object({ type: z.literal('step-count'), max: z.number().int().min(0).optional(), equals: z.number().int().min(0).optional() })
    .refine((a) => (a.max === undefined) !== (a.equals === undefined), { message: 'step-count needs exactly one of "max" or "equals"' }),
  /** The loop stopped for this reason. */
  z.object({ type: z.literal('stop-reason'), reason: stopReasonSchema }),
  /** The final answer contains `contains` and/or matches `regex` (JavaScript syntax, with `flags`). */
  z
    .object({ type: z.literal('final-answer'), contains: z.string().optional(), regex: z.string().optional(), flags: z.string().regex(/^[dgimsuvy]*$/).optional() })
    .refine((a) => a.contains !== undefined || a.regex !== undefined, { message: 'final-answer needs "contains" or "regex"' }),
  /** No event of the run carried an anomaly or a warning. */
  z.object({ type: z.literal('no-anomaly') }),
])
export type Assertion = z.infer<typeof assertionSchema>
export type AssertionType = Assertion['type']

/** Every assertion type, in documentation order. */
export const ASSERTION_TYPES: readonly AssertionType[] = ['tool-used', 'tool-not-used', 'tool-sequence', 'tool-args-match', 'step-count', 'stop-reason', 'final-answer', 'no-anomaly']

export const evalCaseSchema = z.object({
  /** Stable id: names the case in reports and decides its shard. */
  id: z.string().min(1),
  /** The user message that starts the run. */
  input: z.string(),
  /** The model's outputs, one per turn (raw text or an assistant message); the workspace's model.ts answers when absent. */
  outputs: z.array(z.union([z.string(), scriptedMessageSchema])).optional(),
  /** Overrides the workspace's `settings.maxSteps`. */
  maxSteps: z.number().int().min(1).max(100).optional(),
  /** Answer to confirmations for dangerous tools (default `none`: every such call is denied). */
  approve: z.enum(['all', 'none']).optional(),
  assertions: z.array(assertionSchema).min(1),
})
export type EvalCase = z.infer<typeof evalCaseSchema>

/** A workspace's list of cases: ids must be unique. */
export const evalCasesSchema = z.array(evalCaseSchema).superRefine((cases, ctx) => {
  const seen = new Set<string>()
  cases.forEach((c, i) => {
    if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate case id "${c.id}"` })
    seen.add(c.id)
  })
})
