import { useEffect, useRef, type KeyboardEvent } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { type SessionEvent, type Tone } from '../../core/loop'
import type { RowMarks } from '../../core/debug'
import { anomalyTooltip } from '../anomalies/AnomalyCatalogue'
import { useRootFontPx } from '../layout/use-root-font'
import { rowSummary } from './row-summary'
import { useBoxSize, useFixedRows } from './use-fixed-rows'

const PHASE_STYLE: Record<string, string> = {
  start: 'bg-slate-200 text-slate-700',
  decide: 'bg-sky-100 text-sky-800',
  parse: 'bg-violet-100 text-violet-800',
  validate: 'bg-amber-100 text-amber-800',
  confirm: 'bg-orange-100 text-orange-800',
  execute: 'bg-emerald-100 text-emerald-800',
  backfill: 'bg-slate-100 text-slate-700',
  stop: 'bg-slate-800 text-white',
  edit: 'bg-fuchsia-100 text-fuchsia-800',
}

const TONE_STYLE: Record<Tone, string> = {
  normal: 'text-slate-600',
  ok: 'text-emerald-700',
  warn: 'text-amber-700',
  error: 'text-red-700 font-medium',
}

/** A row's height in rem: its two lines of text and their padding, so it grows with the text size. */
const ROW_REM = 2.75
/**
 * A timeline narrower than this (rem) — a big text size, the Lessons panel open — wraps title and
 * detail at word boundaries instead of cutting them: three lines between them, and every
 * row is {@link NARROW_ROW_REM} tall (when three such rows fit). Rows keep one height, so windowing stays arithmetic
 * whatever the count (measuring each wrapped row cost hundreds of ms in a 100 000-call run).
 */
const NARROW_REM = 16
const NARROW_ROW_REM = 3.75

/** A row's anomaly mark: the code of its one anomaly, or how many it has; the catalogue entries on hover. */
function AnomalyBadge({ anomalies }: { anomalies: NonNullable<SessionEvent['anomalies']> }) {
  const { t } = useTranslation()
  return (
    <span
      data-testid="anomaly"
      data-code={anomalies.map((a) => a.code).join(' ')}
      title={anomalyTooltip(t, anomalies)}
      className="inline-block shrink-0 rounded bg-red-600 px-1 align-middle text-[0.625rem] font-semibold leading-4 text-white"
    >
      ⚠ {anomalies.length === 1 ? anomalies[0]!.code : t('timeline.anomalies', { count: anomalies.length })}
    </span>
  )
}

export interface TimelineProps {
  events: readonly SessionEvent[]
  cursor: number
  onSelect(index: number): void
  /** Rows where a breakpoint is placed: a red gutter mark. */
  breakpointRows?: RowMarks
}

/**
 * Every phase of the session, one row per event; the row at the cursor is `aria-current="step"`.
 * Virtualised so replays of thousands of events scroll smoothly.
 */
export function Timeline({ events, cursor, onSelect, breakpointRows }: TimelineProps) {
  const { t } = useTranslation()
  const parentRef = useRef<HTMLDivElement>(null)
  // Rows are placed in px: at 150 % text a row is 1.5 times as tall, or its two lines overlap the next row.
  const rootPx = useRootFontPx()
  const box = useBoxSize(parentRef, events.length > 0)
  // Wrapped rows only where three of them still fit: a short timeline keeps one-line rows (full text on hover).
  const narrow = box.width > 0 && box.width < NARROW_REM * rootPx && box.height >= 3 * NARROW_ROW_REM * rootPx
  const rowHeight = (narrow ? NARROW_ROW_REM : ROW_REM) * rootPx
  // Every row has the same height: the rows in view are arithmetic, whatever the count (see use-fixed-rows.ts).
  const rows = useFixedRows(parentRef, events.length, rowHeight, box.height, 12)
  const { scrollToIndex } = rows

  useEffect(() => {
    if (cursor >= 0) scrollToIndex(cursor)
  }, [cursor, scrollToIndex])

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 }
    if (event.key in moves) onSelect(Math.max(0, Math.min(events.length - 1, cursor + (moves[event.key] ?? 0))))
    else if (event.key === 'Home') onSelect(0)
    else if (event.key === 'End') onSelect(events.length - 1)
    else return
    event.preventDefault()
  }

  if (events.length === 0) {
    return (
      <div data-testid="timeline" className="flex h-full flex-col items-center justify-center-safe gap-2 overflow-auto p-6 text-center text-sm text-slate-500">
        <p className="font-medium text-slate-700">{t('timeline.emptyTitle')}</p>
        <p>
          <Trans i18nKey="timeline.emptyText" values={{ run: t('toolbar.run'), step: t('toolbar.step') }} components={{ kbd: <kbd className="rounded border border-slate-300 bg-white px-1" /> }} />
        </p>
      </div>
    )
  }

  return (
    <div
      ref={parentRef}
      data-testid="timeline"
      role="listbox"
      aria-label={t('timeline.label')}
      aria-activedescendant={cursor >= 0 ? `timeline-item-${cursor}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      className="@container h-full overflow-auto outline-none focus-visible:ring-2 focus-visible:ring-sky-400"
    >
      <div style={{ height: rows.totalSize, position: 'relative' }}>
        {Array.from({ length: rows.end - rows.first }, (_, offset) => {
          const index = rows.first + offset
          const row = { index, key: index, start: index * rowHeight }
          const event = events[row.index]!
          const summary = rowSummary(t, event)
          const current = row.index === cursor
          const future = row.index > cursor
          const anomalies = event.anomalies ?? []
          return (
            <div
              key={row.key}
              id={`timeline-item-${row.index}`}
              data-testid="timeline-item"
              data-phase={summary.phase}
              data-tone={summary.tone}
              role="option"
              aria-selected={current}
              aria-current={current ? 'step' : undefined}
              onClick={() => onSelect(row.index)}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: rowHeight, transform: `translateY(${row.start}px)` }}
              className={`flex cursor-pointer items-center gap-2 border-b border-slate-100 px-2 text-sm ${narrow ? 'py-0.5' : ''} ${
                current ? 'bg-sky-50 ring-1 ring-inset ring-sky-400' : 'hover:bg-slate-50'
              } ${future ? 'opacity-50' : ''} ${summary.tone === 'error' ? 'border-l-4 border-l-red-500' : 'border-l-4 border-l-transparent'}`}
            >
              <span className="w-2 shrink-0" aria-hidden>
                {breakpointRows?.has(row.index) && <span data-testid="breakpoint-mark" title={t('timeline.breakpoint')} className="block h-2 w-2 rounded-full bg-red-600" />}
              </span>
              {/* A narrow timeline gives the event number's room to the title. */}
              <span className="w-8 shrink-0 text-right font-mono text-xs text-slate-400 @max-[18rem]:hidden">{row.index}</span>
              {/* A narrow timeline (150 % text beside the Lessons panel) gives the badge's room to the title,
                  which names the phase too ("Execute · get_weather"): a stripe in the phase's colour stays. */}
              <span className={`w-[5.25rem] shrink-0 whitespace-nowrap rounded px-1 py-0.5 text-center text-[0.6875rem] font-semibold uppercase tracking-wide @max-[18rem]:hidden ${PHASE_STYLE[summary.phase] ?? ''}`}>
                {t(`diagram.phase.${summary.phase}`)}
              </span>
              <span aria-hidden className={`hidden w-1.5 shrink-0 self-stretch rounded @max-[18rem]:block ${PHASE_STYLE[summary.phase] ?? ''}`} />
              {narrow ? (
                /* Narrow (150 % text beside the Lessons panel): title and detail flow as one text of at most
                   three lines, wrapped at spaces (a name is split only when it alone is wider than the row),
                   so a short title leaves two lines to its detail; full texts on hover. */
                <span className="line-clamp-3 min-w-0 flex-1 break-words leading-tight">
                  <span className="block font-medium text-slate-800" title={summary.title}>
                    {summary.title}
                  </span>
                  {anomalies.length > 0 && (
                    <>
                      <AnomalyBadge anomalies={anomalies} />{' '}
                    </>
                  )}
                  <span className={`text-xs ${TONE_STYLE[summary.tone]}`} title={summary.detail}>
                    {summary.detail}
                  </span>
                </span>
              ) : (
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-slate-800" title={summary.title}>
                    {summary.title}
                  </span>
                  <span className="flex min-w-0 items-center gap-x-1">
                    {anomalies.length > 0 && <AnomalyBadge anomalies={anomalies} />}
                    <span className={`min-w-0 truncate text-xs ${TONE_STYLE[summary.tone]}`} title={summary.detail}>
                      {summary.detail}
                    </span>
                  </span>
                </span>
              )}
            </div>
          )
        })}
      </div>
    </div>
  )
}
