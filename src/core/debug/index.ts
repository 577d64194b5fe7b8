/**
 * Public surface of core/debug: breakpoints (triggers, conditions, hits) for live runs and
 * replays, evals of tool use, the turn-by-turn diff of two sessions, and edit and continue.
 */
export { compileCondition, CONDITION_NAMES, type CompiledCondition } from './condition'
export { BREAK_EVENTS, BREAK_PHASES, breakpointSchema, breakpointTriggerSchema, type BreakPhase, type Breakpoint, type BreakpointTrigger } from './breakpoint-schema'
export {
  armBreakpoints,
  breakContext,
  breakpointRows,
  createBreakpointRows,
  type RowMarks,
  describeBreakpoint,
  findBreakHit,
  firstHitInLog,
  parseBreakpointSpec,
  pointOrdinal,
  type ArmedBreakpoint,
  type BreakCall,
  type BreakContext,
  type BreakHit,
  type BreakPoint,
} from './breakpoints'
export { runUntilBreak, upcomingPhase } from './run-to-break'
export { diffTwoSessions, type DiffAspect, type SessionDiff, type SessionDiffRow } from './session-diff'
export { editRefusal, editsBySeq, planEdit, type EditEvent, type EditPlan, type EditRefusal, type EditRequest } from './edit'
export { DEBUG_TEXT, debugRef, type DebugTextKey } from './debug-text'
