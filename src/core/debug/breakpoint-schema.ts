/**
 * The breakpoint as saved in a workspace (`settings.breakpoints`). Zod only, so the loop's
 * settings can hold breakpoints without importing the code that checks them.
 */
import { z } from 'zod'

/** Phases a breakpoint can stop before or after. */
export const BREAK_PHASES = ['decide', 'parse', 'validate', 'confirm', 'execute', 'backfill'] as const
export type BreakPhase = (typeof BREAK_PHASES)[number]

/** Event types a breakpoint can stop on (after the event is appended). */
export const BREAK_EVENTS = [
  'session.started',
  'model.responded',
  'model.failed',
  'parse.completed',
  'validate.completed',
  'confirm.requested',
  'confirm.decided',
  'tool.finished',
  'backfill.completed',
  'loop.stopped',
  'edit.applied',
] as const

/** Where a breakpoint is checked. */
export const breakpointTriggerSchema = z.discriminatedUnion('kind', [
  /** Before the phase runs: the run has not asked the model / run the tools yet. */
  z.object({ kind: z.literal('before'), phase: z.enum(BREAK_PHASES) }),
  /** After the phase's event was appended. */
  z.object({ kind: z.literal('after'), phase: z.enum(BREAK_PHASES) }),
  /** After an event of this type. */
  z.object({ kind: z.literal('event'), type: z.enum(BREAK_EVENTS) }),
  /** After any event that carries an anomaly (replays) or a warning (live runs). */
  z.object({ kind: z.literal('anomaly') }),
  /** Before the model is asked for turn N (1-based). */
  z.object({ kind: z.literal('turn'), turn: z.number().int().min(1) }),
  /** After every event: the condition alone decides. */
  z.object({ kind: z.literal('any') }),
])
export type BreakpointTrigger = z.infer<typeof breakpointTriggerSchema>

export const breakpointSchema = z.object({
  /** Stable id, unique within the workspace. */
  id: z.string().min(1),
  enabled: z.boolean().default(true),
  on: breakpointTriggerSchema,
  /** A condition over the documented context (see `compileCondition`); always true when empty. */
  condition: z.string().default(''),
})
export type Breakpoint = z.infer<typeof breakpointSchema>
