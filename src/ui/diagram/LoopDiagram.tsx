import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PHASE_OF, type Phase, type SessionEvent } from '../../core/loop'
import { useWorkspace } from '../playground-context'
import { breakpointMarks, DIAGRAM_PHASES, createEdgeCounter, nextEventOfPhase, type DiagramEdge } from './loop-graph'

const NODE_W = 84
const NODE_H = 30
const GAP = 100
const ROW_Y = 70
const x = (phase: Phase) => 50 + DIAGRAM_PHASES.indexOf(phase) * GAP

/** The path of `edge`: straight to the next node, an arc above for loops back, below for skips. */
function edgePath(edge: DiagramEdge, lane: number): { d: string; labelX: number; labelY: number } {
  const x1 = x(edge.from)
  const x2 = x(edge.to)
  if (edge.from === edge.to) {
    const top = ROW_Y - NODE_H / 2
    return { d: `M ${x1 - 14} ${top} C ${x1 - 30} ${top - 34}, ${x1 + 30} ${top - 34}, ${x1 + 14} ${top}`, labelX: x1, labelY: top - 30 }
  }
  if (x2 === x1 + GAP) return { d: `M ${x1 + NODE_W / 2} ${ROW_Y} L ${x2 - NODE_W / 2 - 3} ${ROW_Y}`, labelX: (x1 + x2) / 2, labelY: ROW_Y - 5 }
  const back = x2 < x1
  const edgeY = back ? ROW_Y - NODE_H / 2 : ROW_Y + NODE_H / 2
  const depth = 22 + lane * 14
  const cy = back ? edgeY - depth : edgeY + depth
  return { d: `M ${x1} ${edgeY} C ${x1} ${cy}, ${x2} ${cy}, ${x2} ${edgeY + (back ? -3 : 3)}`, labelX: (x1 + x2) / 2, labelY: back ? cy + 8 : cy - 2 }
}

/**
 * The loop's state machine as SVG: decide → parse → validate → confirm → execute → backfill →
 * stop, with the retry, fallback and final-turn edges; the phase at the cursor lit
 * (`aria-current="step"`), each edge's count for this session, and a click on a node moving the
 * cursor to the next event of that phase.
 */
export function LoopDiagram({ events, cursor, onSelect }: { events: readonly SessionEvent[]; cursor: number; onSelect(index: number): void }) {
  const { t } = useTranslation()
  // A live run's log grows phase by phase: only the new events are counted on each update.
  const [countEdges] = useState(createEdgeCounter)
  const { edges, counts } = useMemo(() => countEdges(events), [countEdges, events])
  // Where the workspace's breakpoints sit: a red dot on the node's left (before) or right (after) edge.
  const breakpoints = useWorkspace((s) => s.settings.breakpoints)
  const marks = useMemo(() => breakpointMarks(breakpoints ?? []), [breakpoints])
  const current = cursor >= 0 && events[cursor] ? PHASE_OF[events[cursor].type] : null
  const lanes = new Map<string, number>()
  const laneOf = (edge: DiagramEdge) => {
    const key = `${edge.from}>${edge.to}`
    const lane = lanes.get(key) ?? 0
    lanes.set(key, lane + 1)
    return lane
  }
  return (
    <figure data-testid="loop-diagram" aria-label={t('diagram.title')} className="m-0 min-w-0">
      <svg viewBox="0 0 800 150" role="group" aria-label={t('diagram.title')} className="block h-auto w-full max-h-40" style={{ fontSize: 13 }}>
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" fill="#64748b" />
          </marker>
        </defs>
        {edges.map((edge) => {
          const count = counts.get(edge.id) ?? 0
          const { d, labelX, labelY } = edgePath(edge, laneOf(edge))
          const named = edge.kind !== 'next'
          return (
            <g key={edge.id} data-testid="diagram-edge" data-edge={edge.id} data-count={count}>
              <path d={d} fill="none" stroke={count > 0 ? '#0369a1' : '#cbd5e1'} strokeWidth={count > 0 ? 2 : 1.2} strokeDasharray={named ? '4 3' : undefined} markerEnd="url(#arrow)" />
              {(count > 0 || named) && (
                <text x={labelX} y={labelY} textAnchor="middle" fill={count > 0 ? '#075985' : '#94a3b8'} style={{ fontSize: 11 }}>
                  {named ? `${t(`diagram.edge.${edge.kind}`)} ${count}` : count}
                </text>
              )}
            </g>
          )
        })}
        {DIAGRAM_PHASES.map((phase) => {
          const lit = phase === current
          const target = nextEventOfPhase(events, cursor, phase)
          return (
            <g
              key={phase}
              data-testid="diagram-node"
              data-phase={phase}
              aria-current={lit ? 'step' : undefined}
              role="button"
              tabIndex={target >= 0 ? 0 : -1}
              aria-disabled={target < 0}
              aria-label={t('diagram.nodeHint', { phase: t(`diagram.phase.${phase}`) })}
              onClick={() => target >= 0 && onSelect(target)}
              onKeyDown={(e) => {
                if ((e.key === 'Enter' || e.key === ' ') && target >= 0) {
                  e.preventDefault()
                  onSelect(target)
                }
              }}
              className={target >= 0 ? 'cursor-pointer' : ''}
            >
              <title>{t('diagram.nodeHint', { phase: t(`diagram.phase.${phase}`) })}</title>
              <rect x={x(phase) - NODE_W / 2} y={ROW_Y - NODE_H / 2} width={NODE_W} height={NODE_H} rx={8} fill={lit ? '#0284c7' : '#fff'} stroke={lit ? '#075985' : '#94a3b8'} strokeWidth={lit ? 2.5 : 1.2} />
              <text x={x(phase)} y={ROW_Y + 5} textAnchor="middle" fill={lit ? '#fff' : '#0f172a'} fontWeight={lit ? 700 : 500}>
                {t(`diagram.phase.${phase}`)}
              </text>
              {(['before', 'after'] as const).map((when) =>
                marks.get(phase)?.[when] ? (
                  <circle key={when} data-testid="diagram-breakpoint" data-phase={phase} data-when={when} cx={x(phase) + (when === 'before' ? -NODE_W / 2 : NODE_W / 2)} cy={ROW_Y - NODE_H / 2} r={5} fill="#dc2626" stroke="#fff" strokeWidth={1.5}>
                    <title>{t(`breakpointMarks.${when}`, { phase: t(`diagram.phase.${phase}`) })}</title>
                  </circle>
                ) : null,
              )}
            </g>
          )
        })}
      </svg>
    </figure>
  )
}
