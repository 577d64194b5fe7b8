import { useTranslation } from 'react-i18next'
import { type SessionEvent, fmtMs } from '../../core/loop'
import { WINDOWED_ITEMS, WindowedList } from './WindowedList'
import { LongText } from './LongText'
import { WINDOWED_CHARS } from './raw-pieces'

type Finished = Extract<SessionEvent, { type: 'tool.finished' }>

/** A result with the instruction-like ranges flagged by untrusted wrapping marked. */
function ResultText({ event }: { event: Finished }) {
  const { t } = useTranslation()
  const text = event.error ?? event.result ?? ''
  const marks = event.error === undefined ? (event.injection ?? []) : []
  const parts: { text: string; mark: boolean }[] = []
  let at = 0
  for (const m of marks) {
    if (m.start < at) continue
    parts.push({ text: text.slice(at, m.start), mark: false }, { text: text.slice(m.start, m.end), mark: true })
    at = m.end
  }
  parts.push({ text: text.slice(at), mark: false })
  const style = `mt-0.5 whitespace-pre-wrap font-mono [overflow-wrap:anywhere] ${event.error !== undefined ? 'text-red-700' : 'text-slate-800'}`
  // A huge result without marks is windowed: the page never lays out megabytes of it.
  if (marks.length === 0 && text.length > WINDOWED_CHARS) return <LongText text={text} className={style} />
  return (
    <pre className={`mt-0.5 max-h-48 overflow-auto whitespace-pre-wrap font-mono [overflow-wrap:anywhere] ${event.error !== undefined ? 'text-red-700' : 'text-slate-800'}`}>
      {parts.map((p, i) =>
        p.mark ? (
          <mark key={i} data-testid="injection" title={t('results.injectionHint')} className="rounded-sm bg-red-200 text-red-900">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </pre>
  )
}

function Badges({ event }: { event: Finished }) {
  const { t } = useTranslation()
  const chars = event.originalChars ? ` ${t('results.chars', { count: event.originalChars })}` : ''
  const badges = [
    event.declined && t('results.declined'),
    event.timedOut && (event.timeoutMs !== undefined ? t('results.timedOutAfter', { duration: fmtMs(event.durationMs), limit: event.timeoutMs }) : t('results.timedOut')),
    event.attempts && event.attempts > 1 && t('results.attempts', { count: event.attempts }),
    event.fault && t('results.injected', { fault: event.fault }),
    event.truncated && `${t('results.truncated')}${chars}`,
    event.summarized && `${t('results.summarized')}${chars}`,
    event.wrapped && t('results.wrapped'),
    event.injection?.length && t('results.injectionFlags', { count: event.injection.length }),
  ].filter((b): b is string => typeof b === 'string')
  return (
    <>
      {badges.map((b) => (
        <span key={b} className="rounded bg-amber-100 px-1 text-[11px] text-amber-900">
          {b}
        </span>
      ))}
    </>
  )
}

/**
 * The calls of one turn as lanes: when each started and how long it ran, in issue order,
 * so parallel, sequential and dependent execution can be seen. Backfill is always in issue order.
 */
function Lanes({ events }: { events: Finished[] }) {
  const { t } = useTranslation()
  const own = events.filter((e) => e.parentCallId === undefined)
  // A loop, not Math.max(...): spreading 100 000 arguments overflows the stack.
  let end = 1
  for (const e of events) end = Math.max(end, (e.startOffsetMs ?? 0) + e.durationMs)
  if (own.length < 2 && events.length === own.length) return null
  // A lane per call is a chart of a few calls; thousands are read in the list below.
  if (events.length > WINDOWED_ITEMS) return null
  return (
    <div data-testid="lanes" className="mb-2 rounded border border-slate-200 bg-white p-1.5">
      <div className="mb-1 flex justify-between text-[11px] text-slate-500">
        <span>{t('results.lanes')}</span>
        <span>{fmtMs(end)}</span>
      </div>
      {[...events].sort((a, b) => (a.index ?? 0) - (b.index ?? 0) || (a.parentCallId ? 1 : 0) - (b.parentCallId ? 1 : 0)).map((e) => {
        const left = ((e.startOffsetMs ?? 0) / end) * 100
        const width = Math.max(1.5, (e.durationMs / end) * 100)
        return (
          <div key={e.callId} data-testid="lane" data-call-id={e.callId} className="flex items-center gap-2 py-0.5 text-[11px]">
            <span className="w-36 shrink-0 truncate font-mono" title={`${e.name} [${e.callId}]`}>
              {e.parentCallId ? '↳ ' : `${(e.index ?? 0) + 1}. `}
              {e.name}
            </span>
            <span className="relative h-3 flex-1 rounded bg-slate-100">
              <span
                className={`absolute top-0 h-3 rounded ${e.declined ? 'bg-amber-400' : e.error !== undefined ? 'bg-red-400' : 'bg-emerald-400'}`}
                style={{ left: `${left}%`, width: `${Math.min(width, 100 - left)}%` }}
              />
            </span>
            <span className="w-14 shrink-0 text-right text-slate-500">{fmtMs(e.durationMs)}</span>
          </div>
        )
      })}
    </div>
  )
}

/** Tool results of one turn: lanes, then each result or error with its duration and badges. */
export function ToolResults({ events }: { events: Finished[] }) {
  const { t } = useTranslation()
  return (
    <>
      <Lanes events={events} />
      <WindowedList
        as="ul"
        className="flex flex-col gap-1.5 text-xs"
        count={events.length}
        render={(index) => {
          const r = events[index]!
          return (
          <li
            key={r.callId}
            data-testid="tool-result"
            data-error={r.error !== undefined}
            className={`rounded border p-1.5 ${r.parentCallId ? 'ml-4' : ''} ${r.declined ? 'border-amber-300 bg-amber-50' : r.error !== undefined ? 'border-red-300 bg-red-50' : 'border-emerald-200 bg-emerald-50'}`}
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-mono font-semibold">
                {r.parentCallId ? '↳ ' : ''}
                {r.name}
              </span>
              <span className="flex flex-wrap items-center gap-1 text-slate-500">
                <Badges event={r} />
                {fmtMs(r.durationMs)} · <span className="font-mono">{r.callId}</span>
              </span>
            </div>
            {r.earlierAttempts?.map((a, i) => (
              <div key={i} data-testid="earlier-attempt" className="mt-1 text-[11px] text-slate-600">
                {t('inspectorParts.attempt', { n: i + 1, count: r.attempts })} <span lang="en">{a.error}</span> ({fmtMs(a.durationMs)})
              </div>
            ))}
            <ResultText event={r} />
          </li>
          )
        }}
      />
    </>
  )
}
