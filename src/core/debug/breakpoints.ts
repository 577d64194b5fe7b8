/**
 * Breakpoints: where a run (live or replayed) pauses. Each breakpoint has a trigger (before or
 * after a phase, an event type, any anomaly, a turn) and an optional condition over the
 * context documented on `BreakContext`. Checking is pure: the context is built from the
 * session log alone, so a live run and a replay of its log stop at the same places.
 */
import type { JsonValue } from '../messages'
import { PHASE_OF, type Phase, type SessionEvent, type SessionEventType } from '../loop/events'
import { createAppendFold, type AppendFoldSteps } from '../loop/append-fold'
import { BREAK_EVENTS, BREAK_PHASES, type BreakPhase, type Breakpoint, type BreakpointTrigger } from './breakpoint-schema'
import { compileCondition, type CompiledCondition } from './condition'

/** One call as a condition sees it. */
export interface BreakCall {
  id: string
  name: string
  arguments: Record<string, JsonValue>
}

/**
 * What a condition can read. Lists are empty, never absent; `call` and `result` are `null`
 * where there is none.
 */
export interface BreakContext {
  /** The phase about to run (`before`) or just completed (`after`): decide, parse, validate, confirm, execute, backfill, start, stop. */
  phase: Phase
  /** Model turn, 1-based (the turn being asked for, before decide). 0 before the first decide. */
  turn: number
  /** Type of the event just appended (`after` points), or `null` before a phase. */
  event: SessionEventType | null
  /**
   * The call in question: the finished call after `tool.finished`; before validate/confirm/execute
   * every call of the turn in turn (the breakpoint hits when the condition holds for one of them).
   */
  call: BreakCall | null
  /** The calls parsed out of this turn's output (validated arguments once validated). */
  calls: BreakCall[]
  /** This turn's validation verdicts: `{callId, name, ok, problems}`. */
  verdicts: { callId: string; name: string; ok: boolean; problems: string[] }[]
  /** After `tool.finished`: `{ok, content, error, timedOut, durationMs}`; else `null`. */
  result: { ok: boolean; content: string; error: string | null; timedOut: boolean; durationMs: number } | null
  /** This turn's parse errors `{code, message}`. */
  errors: { code: string; message: string }[]
  /** This turn's parse repairs `{code, message}`. */
  repairs: { code: string; message: string }[]
  /** Anomalies (replays) and warnings (live runs) on the event just appended, `{code, detail}`. */
  anomalies: { code: string; detail: string }[]
}

/** A place a run can pause: before a phase runs, or after an event was appended. */
export type BreakPoint = { when: 'before'; phase: Phase } | { when: 'after'; event: SessionEvent }

/** A breakpoint whose condition parsed. */
export interface ArmedBreakpoint {
  breakpoint: Breakpoint
  condition: CompiledCondition
}

/** Why a run paused. */
export interface BreakHit {
  breakpoint: Breakpoint
  /** Readable name of the breakpoint (`before execute when call.name == 'charge'`). */
  label: string
  /** Where: `before execute` or `after tool.finished #7`. */
  where: string
  /** The call the condition held for, when it was about a call. */
  call: BreakCall | null
  /** Events in the log when it hit (the session so far has this many events). */
  seq: number
  /**
   * Position of the pause point among all points of a run: before event i is `2i`, after event
   * i is `2i + 1`. Pass it back as `resumeAfter` to continue past this hit.
   */
  at: number
}

/** The position of a pause point (see `BreakHit.at`). */
export function pointOrdinal(events: readonly SessionEvent[], point: BreakPoint): number {
  return point.when === 'before' ? 2 * events.length : 2 * point.event.seq + 1
}

/**
 * Compile the enabled breakpoints. Never throws: a breakpoint whose condition does not parse is
 * returned in `errors` (by id) and is not armed.
 */
export function armBreakpoints(breakpoints: readonly Breakpoint[]): { armed: ArmedBreakpoint[]; errors: { id: string; error: string }[] } {
  const armed: ArmedBreakpoint[] = []
  const errors: { id: string; error: string }[] = []
  for (const breakpoint of breakpoints) {
    if (!breakpoint.enabled) continue
    const compiled = compileCondition(breakpoint.condition)
    if (compiled.ok) armed.push({ breakpoint, condition: compiled.condition })
    else errors.push({ id: breakpoint.id, error: compiled.error })
  }
  return { armed, errors }
}

/** Readable form of a breakpoint, which `parseBreakpointSpec` reads back. */
export function describeBreakpoint(breakpoint: Pick<Breakpoint, 'on' | 'condition'>): string {
  const on = breakpoint.on
  const where =
    on.kind === 'before' || on.kind === 'after' ? `${on.kind} ${on.phase}` : on.kind === 'event' ? `on ${on.type}` : on.kind === 'anomaly' ? 'on anomaly' : on.kind === 'turn' ? `at turn ${on.turn}` : ''
  const condition = breakpoint.condition.trim()
  if (!condition) return where || 'always'
  return where ? `${where} when ${condition}` : condition
}

const SPEC = /^\s*(?:(before|after)\s+([a-z]+)|on\s+(anomaly|[a-z]+\.[a-z]+)|at\s+turn\s+(\d+))(?:\s+(when)(?:\s+([\s\S]*))?)?$/

/**
 * Read a breakpoint written as text, the form `toolstep run --break` takes:
 * `before PHASE`, `after PHASE`, `on EVENT.TYPE`, `on anomaly` or `at turn N`, each optionally
 * followed by `when CONDITION`; or a bare CONDITION (checked after every event).
 * Never throws; the error names what is wrong, including a condition that does not parse.
 */
export function parseBreakpointSpec(text: string, id = 'b1'): { ok: true; breakpoint: Breakpoint } | { ok: false; error: string } {
  const match = SPEC.exec(text)
  let on: BreakpointTrigger = { kind: 'any' }
  let condition = text.trim()
  if (match) {
    const [, when, phase, event, turn, hasWhen, rest] = match
    condition = (rest ?? '').trim()
    if (when) {
      if (!(BREAK_PHASES as readonly string[]).includes(phase!)) return { ok: false, error: `Unknown phase "${phase}": use one of ${BREAK_PHASES.join(', ')}.` }
      on = { kind: when as 'before' | 'after', phase: phase as BreakPhase }
    } else if (event === 'anomaly') on = { kind: 'anomaly' }
    else if (event) {
      if (!(BREAK_EVENTS as readonly string[]).includes(event)) return { ok: false, error: `Unknown event type "${event}": use one of ${BREAK_EVENTS.join(', ')}.` }
      on = { kind: 'event', type: event as (typeof BREAK_EVENTS)[number] }
    } else on = { kind: 'turn', turn: Number(turn) }
    if (hasWhen && condition === '') return { ok: false, error: 'Nothing follows "when": write a condition or leave "when" out.' }
  } else if (/^\s*(before|after|on|at)\b/.test(text) && !/[=<>!&|(]/.test(text)) {
    return { ok: false, error: `Cannot read the breakpoint "${text.trim()}": write before|after PHASE, on EVENT.TYPE, on anomaly or at turn N, optionally followed by "when CONDITION".` }
  }
  const compiled = compileCondition(condition)
  if (!compiled.ok) return { ok: false, error: compiled.error }
  return { ok: true, breakpoint: { id, enabled: true, on, condition } }
}

/**
 * The first armed breakpoint that hits at `point`, given the log so far (`events`; for an
 * `after` point its last event is `point.event`). `null` when none does. Pure.
 */
export function findBreakHit(armed: readonly ArmedBreakpoint[], events: readonly SessionEvent[], point: BreakPoint): BreakHit | null {
  if (armed.length === 0) return null
  const context = breakContext(events, point)
  const where = point.when === 'before' ? `before ${point.phase}` : `after ${point.event.type} #${point.event.seq}`
  for (const { breakpoint, condition } of armed) {
    if (!triggers(breakpoint.on, point, context)) continue
    // Before a phase that works on calls, the condition is asked about each call in turn.
    const perCall = point.when === 'before' && (point.phase === 'validate' || point.phase === 'confirm' || point.phase === 'execute') && context.calls.length > 0
    const candidates: (BreakCall | null)[] = perCall ? context.calls : [context.call]
    for (const call of candidates) {
      if (condition.test({ ...context, call }).value) return { breakpoint, label: describeBreakpoint(breakpoint), where, call, seq: events.length, at: pointOrdinal(events, point) }
    }
  }
  return null
}

function triggers(on: BreakpointTrigger, point: BreakPoint, context: BreakContext): boolean {
  switch (on.kind) {
    case 'before':
      return point.when === 'before' && point.phase === on.phase
    case 'after':
      // Execute logs one `tool.finished` per call: the breakpoint is checked after each.
      return point.when === 'after' && PHASE_OF[point.event.type] === on.phase
    case 'event':
      return point.when === 'after' && point.event.type === on.type
    case 'anomaly':
      return point.when === 'after' && context.anomalies.length > 0
    case 'turn':
      return point.when === 'before' && point.phase === 'decide' && context.turn === on.turn
    case 'any':
      return point.when === 'after'
  }
}

/** The context a condition sees at `point`. Pure; linear in the log. */
export function breakContext(events: readonly SessionEvent[], point: BreakPoint): BreakContext {
  let turn = 0
  let calls: BreakCall[] = []
  let verdicts: BreakContext['verdicts'] = []
  let errors: BreakContext['errors'] = []
  let repairs: BreakContext['repairs'] = []
  for (const event of events) {
    if (event.type === 'model.responded' || event.type === 'model.failed') {
      turn++
      calls = []
      verdicts = []
      errors = []
      repairs = []
    } else if (event.type === 'edit.applied' && event.target === 'model_output') {
      // The edited output is parsed again: the turn's calls are what that parse finds.
      calls = []
      verdicts = []
      errors = []
      repairs = []
    } else if (event.type === 'parse.completed') {
      calls = event.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }))
      errors = event.errors.map((e) => ({ code: e.code, message: e.message }))
      repairs = event.repairs.map((e) => ({ code: e.code, message: e.message }))
    } else if (event.type === 'validate.completed') {
      verdicts = event.verdicts.map((v) => ({ callId: v.callId, name: v.name, ok: v.ok, problems: v.problems }))
      calls = calls.map((c) => {
        const verdict = event.verdicts.find((v) => v.callId === c.id)
        return verdict ? { id: c.id, name: verdict.name, arguments: verdict.arguments ?? c.arguments } : c
      })
    }
  }
  if (point.when === 'before') {
    return { phase: point.phase, turn: point.phase === 'decide' ? turn + 1 : turn, event: null, call: null, calls, verdicts, result: null, errors, repairs, anomalies: [] }
  }
  const { event } = point
  let call: BreakCall | null = null
  let result: BreakContext['result'] = null
  if (event.type === 'tool.finished') {
    const parsed = calls.find((c) => c.id === event.callId)
    call = { id: event.callId, name: event.name, arguments: event.arguments ?? parsed?.arguments ?? {} }
    result = { ok: event.error === undefined, content: event.error ?? event.result ?? '', error: event.error ?? null, timedOut: event.timedOut, durationMs: event.durationMs }
  } else if (calls.length === 1) call = calls[0]!
  const anomalies = [...(event.anomalies ?? []), ...(event.warnings ?? [])].map((a) => ({ code: a.code, detail: a.detail }))
  return { phase: PHASE_OF[event.type], turn, event: event.type, call, calls, verdicts, result, errors, repairs, anomalies }
}

/**
 * Walk a finished log (a replay, or a saved session) and return the first hit, checking before
 * each phase's first event and after each event, in log order. `resumeAfter` (a hit's `at`)
 * skips the points up to and including that one, to continue after a hit. Pure.
 */
export function firstHitInLog(armed: readonly ArmedBreakpoint[], events: readonly SessionEvent[], resumeAfter = -1): BreakHit | null {
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!
    const phase = PHASE_OF[event.type]
    const previous = i > 0 ? events[i - 1]! : null
    // A phase is "about to run" once, before its first event (execute logs one event per call).
    const starts = !previous || PHASE_OF[previous.type] !== phase || phase === 'decide'
    if (2 * i > resumeAfter && starts && phase !== 'start' && phase !== 'stop') {
      const hit = findBreakHit(armed, events.slice(0, i), { when: 'before', phase })
      if (hit) return hit
    }
    if (2 * i + 1 > resumeAfter) {
      const hit = findBreakHit(armed, events.slice(0, i + 1), { when: 'after', event })
      if (hit) return hit
    }
  }
  return null
}

interface PlacedRows {
  rows: Set<number>
  turn: number
}

function placedSteps(breakpoints: readonly Breakpoint[]): AppendFoldSteps<SessionEvent, PlacedRows, RowMarks> {
  const enabled = breakpoints.filter((b) => b.enabled && b.on.kind !== 'any')
  return {
    start: () => ({ rows: new Set(), turn: 0 }),
    add(placed, event, i, events) {
      if (enabled.length === 0) return
      const phase = PHASE_OF[event.type]
      const previous = i > 0 ? PHASE_OF[events[i - 1]!.type] : null
      if (phase === 'decide') placed.turn++
      const starts = previous !== phase || phase === 'decide'
      const anomalous = (event.anomalies?.length ?? 0) + (event.warnings?.length ?? 0) > 0
      for (const { on } of enabled) {
        const hit =
          (on.kind === 'before' && starts && on.phase === phase) ||
          (on.kind === 'after' && on.phase === phase) ||
          (on.kind === 'event' && on.type === event.type) ||
          (on.kind === 'anomaly' && anomalous) ||
          (on.kind === 'turn' && phase === 'decide' && placed.turn === on.turn)
        if (hit) {
          placed.rows.add(i)
          break
        }
      }
    },
    // Rows are only ever added past `count`; a view bounded by `count` answers for this log even
    // after the set grows for a longer one (an "after execute" mark on each of 100 000 calls is
    // not copied on every update).
    view: (placed, count) => boundedRows(placed.rows, count),
  }
}

/** Rows of a timeline that carry a mark: `has(row)` for a 0-based event index. */
export interface RowMarks {
  has(row: number): boolean
}

function boundedRows(rows: ReadonlySet<number>, count: number): RowMarks {
  return { has: (row) => row < count && rows.has(row) }
}

/**
 * Timeline rows where an enabled breakpoint is placed (its trigger, not its condition): the
 * event a `before` breakpoint stops ahead of, the event an `after` / `on` breakpoint follows,
 * the decide of turn N. `any` breakpoints mark nothing (they are everywhere). Pure; linear.
 */
export function breakpointRows(breakpoints: readonly Breakpoint[], events: readonly SessionEvent[]): Set<number> {
  const placed = placedSteps(breakpoints)
  const acc = placed.start()
  events.forEach((event, i) => placed.add(acc, event, i, events))
  return acc.rows
}

/**
 * {@link breakpointRows} for a log looked at as it grows (the live timeline): for the same
 * `breakpoints` array, each call walks only the events appended since the last call; other
 * breakpoints start over. The answer is the rows of `events`, read-only.
 */
export function createBreakpointRows(): (breakpoints: readonly Breakpoint[], events: readonly SessionEvent[]) => RowMarks {
  let armedFor: readonly Breakpoint[] | null = null
  let fold: (events: readonly SessionEvent[]) => RowMarks = () => ({ has: () => false })
  return (breakpoints, events) => {
    if (breakpoints !== armedFor) {
      armedFor = breakpoints
      fold = createAppendFold(placedSteps(breakpoints))
    }
    return fold(events)
  }
}
