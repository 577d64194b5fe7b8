import { PHASE_OF, createFoldCache } from '../core/loop'
import { useRun, useWorkspace } from './playground-context'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { preview } from './inspector/LongText'
import { coreDetail } from './i18n/text'

/** Always-visible state: the phase at the cursor, the run status, and at the end the stop reason and final answer. */
export function StatusBar() {
  const { t } = useTranslation()
  const events = useRun((s) => s.events)
  const cursor = useRun((s) => s.cursor)
  const status = useRun((s) => s.status)
  const mode = useRun((s) => s.mode)
  // Folding up to the cursor on every move would cost the whole log (0.5 s at 100 000 events).
  const [folds] = useState(createFoldCache)
  const state = useMemo(() => folds.foldTo(events, cursor), [folds, events, cursor])
  const current = events[cursor]
  const last = events.at(-1)
  const finalState = useMemo(() => (last?.type === 'loop.stopped' ? folds.foldTo(events, events.length - 1) : null), [folds, events, last])
  const problems = useRun((s) => s.problems)
  const runWorkspace = useRun((s) => s.workspace)
  const tools = useWorkspace((s) => s.tools)
  const model = useWorkspace((s) => s.model)
  const input = useWorkspace((s) => s.input)
  const settings = useWorkspace((s) => s.settings)
  const stale =
    mode === 'live' && runWorkspace !== null && JSON.stringify([runWorkspace.tools, runWorkspace.model, runWorkspace.input, runWorkspace.settings]) !== JSON.stringify([tools, model, input, settings])
  const atEnd = cursor === events.length - 1

  return (
    <div data-testid="status-bar" className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-slate-200 bg-white px-3 py-1.5 text-sm">
      <span>
        <span className="text-slate-500">{t('status.phase')} </span>
        <span data-testid="current-phase" data-phase={current ? PHASE_OF[current.type] : undefined} className="font-semibold">{current ? t(`diagram.phase.${PHASE_OF[current.type]}`) : '—'}</span>
      </span>
      <span>
        <span className="text-slate-500">{t('status.turn')} </span>
        <span className="font-mono">{state.step}</span>
      </span>
      <span>
        <span className="text-slate-500">{t('status.event')} </span>
        <span className="font-mono">{cursor + 1}/{events.length}</span>
      </span>
      <span className="text-slate-500">{t(`status.state.${mode === 'replay' ? 'replay' : status === 'loading' ? 'loading' : status === 'running' ? 'running' : status === 'stopped' ? 'finished' : events.length ? 'paused' : 'ready'}`)}</span>
      {problems.length > 0 && (
        <span data-testid="run-blocked" role="alert" className="font-medium text-red-700">
          {t('status.cannotRun', { where: problems.map((p) => `${p.file}${p.line ? `:${p.line}${p.column ? `:${p.column}` : ''}` : ''}`).join(', ') })}
        </span>
      )}
      {stale && (
        <span data-testid="stale-run" className="rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900" title={t('status.staleHint')}>
          {t('status.stale')}
        </span>
      )}
      {finalState?.stop && (
        <span className={`flex items-center gap-1 ${atEnd ? '' : 'opacity-60'}`} title={atEnd ? undefined : t('status.stopEarlier')}>
          <span className="text-slate-500">{t('status.stopReason')}</span>
          <span
            data-testid="stop-reason"
            className={`rounded px-1.5 py-0.5 font-mono text-xs font-semibold ${finalState.stop.reason === 'final_answer' ? 'bg-emerald-100 text-emerald-800' : 'bg-red-100 text-red-800'}`}
            title={finalState.stop.detail === undefined ? undefined : coreDetail(t, 'loop', { detail: finalState.stop.detail, phrase: finalState.stop.phrase })}
          >
            {finalState.stop.reason}
          </span>
        </span>
      )}
      {finalState?.finalAnswer !== null && finalState?.finalAnswer !== undefined && (
        // Squeezed (big text beside the Lessons panel), label and answer are cut with an ellipsis inside the bar
        // (the whole answer is in the stop row): a label that could not shrink spilled past the bar's edge, and
        // moving the answer to a line of its own took a timeline row at 200 %.
        <span className={`flex min-w-0 flex-1 items-center gap-1 overflow-hidden ${atEnd ? '' : 'opacity-60'}`}>
          <span className="min-w-0 shrink truncate text-slate-500">{t('status.answer')}</span>
          {/* One line of a long answer is all that shows: the page never lays out (or keeps as a title) megabytes of it. */}
          <span data-testid="final-answer" className="truncate text-emerald-900" title={preview(finalState.finalAnswer)}>
            {preview(finalState.finalAnswer)}
          </span>
        </span>
      )}
    </div>
  )
}
