import { useLayoutEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PHASE_OF, type Phase, type SessionEvent } from '../../core/loop'
import { useWorkspace } from '../playground-context'
import { useRootFontPx } from '../layout/use-root-font'
import { breakpointMarks, DIAGRAM_PHASES, createEdgeCounter, nextEventOfPhase, type DiagramEdge } from './loop-graph'
import { fitDiagram, type DiagramGeometry } from './diagram-layout'

/** Edge labels show at this many rem, so they follow the text size (12 px at 100 %, 18 px at 150 %). */
const LABEL_REM = 0.75

/** The path of `edge`: straight to the next node, an arc above for loops back, below for skips. */
function edgePath(g: DiagramGeometry, edge: DiagramEdge, lane: number): { d: string; labelX: number; labelY: number } {
  const x = (phase: Phase) => g.x(DIAGRAM_PHASES.indexOf(phase))
  const x1 = x(edge.from)
  const x2 = x(edge.to)
  const rowY = g.rowY
  if (edge.from === edge.to) {
    const top = rowY - g.nodeH / 2
    const rise = 34 + g.lift
    return { d: `M ${x1 - 14} ${top} C ${x1 - 30} ${top - rise}, ${x1 + 30} ${top - rise}, ${x1 + 14} ${top}`, labelX: x1, labelY: top - rise + 4 }
  }
  if (x2 === x1 + g.step) return { d: `M ${x1 + g.nodeW / 2} ${rowY} L ${x2 - g.nodeW / 2 - 3} ${rowY}`, labelX: (x1 + x2) / 2, labelY: rowY - 5 }
  const back = x2 < x1
  const edgeY = back ? rowY - g.nodeH / 2 : rowY + g.nodeH / 2
  const depth = 22 + g.lift + lane * g.lane
  const cy = back ? edgeY - depth : edgeY + depth
  return { d: `M ${x1} ${edgeY} C ${x1} ${cy}, ${x2} ${cy}, ${x2} ${edgeY + (back ? -3 : 3)}`, labelX: (x1 + x2) / 2, labelY: back ? cy + g.label * 0.75 : cy - 2 }
}

/** Width of `texts`' widest at a font size of 1 px, in the element's font (0 outside a browser). */
function widestPerPx(element: Element, texts: readonly string[], weight: number): number {
  const context = document.createElement('canvas').getContext('2d')
  if (!context) return 0
  context.font = `${weight} 100px ${getComputedStyle(element).fontFamily}`
  return Math.max(0, ...texts.map((text) => context.measureText(text).width / 100))
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
  const nodeLabels = DIAGRAM_PHASES.map((phase) => t(`diagram.phase.${phase}`))
  const countLabels = edges.filter((e) => e.kind === 'next').map((e) => String(counts.get(e.id) ?? 0))
  // The drawing is fitted to its box at the current text size: measured after layout, and again
  // when the box, the text size or the labels change.
  const svg = useRef<SVGSVGElement>(null)
  const rootPx = useRootFontPx()
  const [box, setBox] = useState({ width: 0, height: 0, node: 0, count: 0 })
  const labelKey = `${nodeLabels.join('|')}#${Math.max(1, ...countLabels.map((c) => c.length))}`
  useLayoutEffect(() => {
    const element = svg.current
    if (!element) return
    const [names = '', digits = '1'] = labelKey.split('#')
    const node = widestPerPx(element, names.split('|'), 700)
    const count = widestPerPx(element, ['0'.repeat(Number(digits))], 400)
    const measure = () => {
      const style = getComputedStyle(element)
      // Its height is either set (presenter mode) or follows its width up to a maximum.
      const height = style.maxHeight === 'none' ? element.clientHeight : parseFloat(style.maxHeight)
      setBox((old) => (old.width === element.clientWidth && old.height === height && old.node === node && old.count === count ? old : { width: element.clientWidth, height, node, count }))
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [labelKey, rootPx])
  const g = useMemo(() => fitDiagram(DIAGRAM_PHASES.length, LABEL_REM * rootPx, box.width, box.height, box.node, box.count), [rootPx, box])
  const x = (phase: Phase) => g.x(DIAGRAM_PHASES.indexOf(phase))
  const lanes = new Map<string, number>()
  const laneOf = (edge: DiagramEdge) => {
    const key = `${edge.from}>${edge.to}`
    const lane = lanes.get(key) ?? 0
    lanes.set(key, lane + 1)
    return lane
  }
  return (
    <figure data-testid="loop-diagram" aria-label={t('diagram.title')} className="m-0 min-w-0">
      <svg ref={svg} viewBox={`0 0 ${g.width.toFixed(1)} ${g.height.toFixed(1)}`} role="group" aria-label={t('diagram.title')} className="block h-auto w-full max-h-40" style={{ fontSize: g.node }}>
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" fill="#64748b" />
          </marker>
        </defs>
        {edges.map((edge) => {
          const count = counts.get(edge.id) ?? 0
          const { d, labelX, labelY } = edgePath(g, edge, laneOf(edge))
          const named = edge.kind !== 'next'
          return (
            <g key={edge.id} data-testid="diagram-edge" data-edge={edge.id} data-count={count}>
              <path d={d} fill="none" stroke={count > 0 ? '#0369a1' : '#cbd5e1'} strokeWidth={count > 0 ? 2 : 1.2} strokeDasharray={named ? '4 3' : undefined} markerEnd="url(#arrow)" />
              {(count > 0 || named) && (
                // A white halo keeps a label readable where it crosses an arc.
                <text data-testid="diagram-label" x={labelX} y={labelY} textAnchor="middle" fill={count > 0 ? '#075985' : '#64748b'} stroke="#fff" strokeWidth={g.label * 0.25} paintOrder="stroke" style={{ fontSize: g.label }}>
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
              <rect x={x(phase) - g.nodeW / 2} y={g.rowY - g.nodeH / 2} width={g.nodeW} height={g.nodeH} rx={8} fill={lit ? '#0284c7' : '#fff'} stroke={lit ? '#075985' : '#94a3b8'} strokeWidth={lit ? 2.5 : 1.2} />
              <text x={x(phase)} y={g.rowY} dominantBaseline="central" textAnchor="middle" fill={lit ? '#fff' : '#0f172a'} fontWeight={lit ? 700 : 500}>
                {t(`diagram.phase.${phase}`)}
              </text>
              {(['before', 'after'] as const).map((when) =>
                marks.get(phase)?.[when] ? (
                  <circle key={when} data-testid="diagram-breakpoint" data-phase={phase} data-when={when} cx={x(phase) + (when === 'before' ? -g.nodeW / 2 : g.nodeW / 2)} cy={g.rowY - g.nodeH / 2} r={5} fill="#dc2626" stroke="#fff" strokeWidth={1.5}>
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
