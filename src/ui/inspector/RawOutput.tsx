import { useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { Span } from '../../core/protocols'
import { useMeasuredRows } from '../timeline/use-measured-rows'
import { indexRanges, NO_HEIGHTS, NO_ROWS, piecesOf, rangesMeeting, WINDOWED_CHARS, WINDOWED_RANGES, type Piece } from './raw-pieces'
import { useTextRows } from './text-layout'

export interface Highlight extends Span {
  kind: 'call' | 'name' | 'arguments'
  /** Index of the call the range belongs to. */
  call: number
}

const KIND_STYLE: Record<Highlight['kind'], string> = {
  call: 'bg-violet-100',
  name: 'bg-violet-300 text-violet-950 font-semibold',
  arguments: 'bg-amber-100',
}

const BOX = 'max-h-80 overflow-auto whitespace-pre-wrap [overflow-wrap:anywhere] rounded border border-slate-200 bg-white p-2 font-mono text-xs leading-relaxed text-slate-800'

function renderPiece(raw: string, p: Piece) {
  return p.top ? (
    <mark key={p.start} data-kind={p.top.kind} data-call={p.top.call} className={`rounded-sm ${KIND_STYLE[p.top.kind]}`}>
      {raw.slice(p.start, p.end)}
    </mark>
  ) : (
    <span key={p.start}>{raw.slice(p.start, p.end)}</span>
  )
}

/**
 * The model's raw output with the recognised ranges marked: the whole call, its name
 * and its arguments. Ranges are UTF-16 offsets, as JavaScript strings index. An output over
 * `WINDOWED_CHARS` characters or `WINDOWED_RANGES` ranges (a 10 MB answer, a turn of 100 000
 * calls) is shown windowed: rows are cut and marked only as they scroll into view.
 */
export function RawOutput({ raw, highlights, testId = 'raw-output' }: { raw: string; highlights: readonly Highlight[]; testId?: string }) {
  const { t } = useTranslation()
  if (raw.length > WINDOWED_CHARS || highlights.length > WINDOWED_RANGES) return <WindowedRawOutput raw={raw} highlights={highlights} testId={testId} />
  const pieces = piecesOf(0, raw.length, highlights)
  return (
    <pre data-testid={testId} className={BOX}>
      {raw.length === 0 ? <span className="italic text-slate-400">{t('inspectorParts.emptyOutput')}</span> : null}
      {pieces.map((p) => renderPiece(raw, p))}
    </pre>
  )
}

/** The indexes of the last texts' ranges: a card of a huge turn drawn again reuses them. */
const indexes = new WeakMap<readonly Highlight[], ReturnType<typeof indexRanges>>()

function indexOf(highlights: readonly Highlight[]): ReturnType<typeof indexRanges> {
  let index = indexes.get(highlights)
  if (!index) indexes.set(highlights, (index = indexRanges(highlights)))
  return index
}

/** A row of the raw output is known by its index: the rows of one text never move. */
const rowKey = (index: number) => index

function WindowedRawOutput({ raw, highlights, testId }: { raw: string; highlights: readonly Highlight[]; testId: string }) {
  const { t } = useTranslation()
  const layout = useTextRows(raw)
  const rows = layout?.starts ?? NO_ROWS
  const index = useMemo(() => (layout ? indexOf(highlights) : null), [highlights, layout])
  const parentRef = useRef<HTMLPreElement>(null)
  // Hundreds of thousands of rows (a turn of 100 000 calls, pretty-printed): offsets in typed arrays, not an object per row.
  const virtualizer = useMeasuredRows(parentRef, {
    count: rows.length,
    estimate: layout?.heights ?? NO_HEIGHTS,
    keyOf: rowKey,
    scope: rows,
    overscan: 8,
    // Without layout (tests, a hidden tab) still show the first rows.
    fallbackHeight: 320,
  })
  return (
    <div>
      <p className="mb-1 text-xs text-slate-500" data-testid="raw-output-windowed">
        {t('rawOutput.windowed', { chars: raw.length.toLocaleString(), ranges: highlights.length.toLocaleString() })}
      </p>
      <pre data-testid={testId} data-windowed="true" ref={parentRef} className={BOX} aria-busy={layout ? undefined : true}>
        {layout ? null : <span className="italic text-slate-400">{t('rawOutput.layingOut')}</span>}
        <div style={{ height: virtualizer.totalSize, position: 'relative', width: '100%' }}>
          {index && virtualizer.rows.map((item) => {
            const start = rows[item.index]!
            const end = item.index + 1 < rows.length ? rows[item.index + 1]! : raw.length
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
              >
                {piecesOf(start, end, rangesMeeting(index, start, end)).map((p) => renderPiece(raw, p))}
              </div>
            )
          })}
        </div>
      </pre>
    </div>
  )
}
