/**
 * The loop's state machine as a fixed graph for the diagram, and the count of each edge a
 * session took. Pure: events in, numbers out.
 */
import type { Breakpoint } from '../../core/debug'
import { PHASE_OF, createAppendFold, type AppendFoldSteps, type Phase, type SessionEvent } from '../../core/loop'

/** The nodes, left to right. */
export const DIAGRAM_PHASES: readonly Phase[] = ['start', 'decide', 'parse', 'validate', 'confirm', 'execute', 'backfill', 'stop']

/** An edge kind: a plain transition, or one of the named ones. */
export type EdgeKind = 'next' | 'retry' | 'fallback' | 'finalTurn'

/** One edge of the diagram. */
export interface DiagramEdge {
  id: string
  from: Phase
  to: Phase
  kind: EdgeKind
}

/** The edges always drawn (the ones a session takes in addition are added by {@link edgeCounts}). */
export const BASE_EDGES: readonly DiagramEdge[] = [
  { id: 'start>decide', from: 'start', to: 'decide', kind: 'next' },
  { id: 'decide>parse', from: 'decide', to: 'parse', kind: 'next' },
  { id: 'parse>validate', from: 'parse', to: 'validate', kind: 'next' },
  { id: 'parse>parse:fallback', from: 'parse', to: 'parse', kind: 'fallback' },
  { id: 'validate>confirm', from: 'validate', to: 'confirm', kind: 'next' },
  { id: 'confirm>execute', from: 'confirm', to: 'execute', kind: 'next' },
  { id: 'validate>execute', from: 'validate', to: 'execute', kind: 'next' },
  { id: 'execute>backfill', from: 'execute', to: 'backfill', kind: 'next' },
  { id: 'backfill>decide', from: 'backfill', to: 'decide', kind: 'next' },
  { id: 'backfill>decide:retry', from: 'backfill', to: 'decide', kind: 'retry' },
  { id: 'backfill>decide:finalTurn', from: 'backfill', to: 'decide', kind: 'finalTurn' },
  { id: 'parse>stop', from: 'parse', to: 'stop', kind: 'next' },
]

function edgeOf(previous: SessionEvent, event: SessionEvent): DiagramEdge | null {
  const from = PHASE_OF[previous.type]
  const to = PHASE_OF[event.type]
  // Several tool.finished (or confirm) events in a row are one visit of the phase.
  if (from === to) return null
  let kind: EdgeKind = 'next'
  if (from === 'backfill' && to === 'decide') {
    if (event.type === 'model.responded' && event.finalTurn) kind = 'finalTurn'
    else if (previous.type === 'backfill.completed' && previous.messages.some((m) => m.role === 'user')) kind = 'retry'
  }
  return { id: kind === 'next' ? `${from}>${to}` : `${from}>${to}:${kind}`, from, to, kind }
}

interface EdgeTally {
  counts: Map<string, number>
  edges: DiagramEdge[]
  known: Set<string>
  protocol: string | undefined
  previous: SessionEvent | null
}

const FALLBACK_EDGE = BASE_EDGES.find((e) => e.kind === 'fallback') as DiagramEdge

const edgeSteps: AppendFoldSteps<SessionEvent, EdgeTally, { edges: DiagramEdge[]; counts: Map<string, number> }> = {
  start: () => ({ counts: new Map(), edges: [...BASE_EDGES], known: new Set(BASE_EDGES.map((e) => e.id)), protocol: undefined, previous: null }),
  add(tally, event) {
    const bump = (edge: DiagramEdge) => {
      if (!tally.known.has(edge.id)) {
        tally.known.add(edge.id)
        tally.edges.push(edge)
      }
      tally.counts.set(edge.id, (tally.counts.get(edge.id) ?? 0) + 1)
    }
    // The first session.started names the wire format a parse in another one fell back from.
    if (event.type === 'session.started' && tally.protocol === undefined) tally.protocol = event.protocol
    // An edit is the user's, not a transition of the loop: the edge goes around it.
    if (event.type === 'edit.applied') return
    const { protocol } = tally
    if (event.type === 'parse.completed' && protocol && protocol !== 'auto' && event.protocol !== protocol && event.calls.length > 0) bump(FALLBACK_EDGE)
    const edge = tally.previous ? edgeOf(tally.previous, event) : null
    if (edge) bump(edge)
    tally.previous = event
  },
  // A dozen edges at most: copied so a kept answer does not change under its holder.
  view: (tally) => ({ edges: [...tally.edges], counts: new Map(tally.counts) }),
}

/**
 * How often the session took each edge, by edge id, and every edge drawn (the base edges plus
 * any other transition the session made, e.g. `validate>stop`). A parse that matched in a fallback
 * format counts once on `parse>parse:fallback`. Linear in the number of events.
 */
export function edgeCounts(events: readonly SessionEvent[]): { edges: DiagramEdge[]; counts: Map<string, number> } {
  return createAppendFold(edgeSteps)(events)
}

/**
 * {@link edgeCounts} for a log looked at as it grows (the live diagram): each call walks only
 * the events appended since the last one, so a run of n events costs O(n) to draw, not O(n²).
 */
export function createEdgeCounter(): (events: readonly SessionEvent[]) => { edges: DiagramEdge[]; counts: Map<string, number> } {
  return createAppendFold(edgeSteps)
}

/** The index of the next event after `cursor` in `phase`, wrapping to the first; -1 when none. */
export function nextEventOfPhase(events: readonly SessionEvent[], cursor: number, phase: Phase): number {
  for (let step = 1; step <= events.length; step++) {
    const index = (cursor + step + events.length) % events.length
    const event = events[index]
    if (event && PHASE_OF[event.type] === phase) return index
  }
  return -1
}

/** Where breakpoints sit on the diagram: for each node, whether one stops before it, after it, or both. */
export type BreakpointMarks = Map<Phase, { before: boolean; after: boolean }>

/**
 * The nodes enabled breakpoints are placed on, by trigger (not condition): `before`/`after` a
 * phase on that phase, `on EVENT` after the event's phase, `at turn N` before decide. `on
 * anomaly` and bare conditions can stop anywhere and mark no node. Pure.
 */
export function breakpointMarks(breakpoints: readonly Breakpoint[]): BreakpointMarks {
  const marks: BreakpointMarks = new Map()
  const mark = (phase: Phase, when: 'before' | 'after') => {
    const entry = marks.get(phase) ?? { before: false, after: false }
    entry[when] = true
    marks.set(phase, entry)
  }
  for (const { enabled, on } of breakpoints) {
    if (!enabled) continue
    if (on.kind === 'before' || on.kind === 'after') mark(on.phase, on.kind)
    else if (on.kind === 'event') mark(PHASE_OF[on.type], 'after')
    else if (on.kind === 'turn') mark('decide', 'before')
  }
  return marks
}
