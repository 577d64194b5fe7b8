import { useMemo } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { useFork, usePlayground, useRun } from '../playground-context'
import { diffSessions } from '../../core/loop'
import { cellText, conversationLabel } from '../i18n/text'

/** Logged vs re-run after a fork (or original vs edited after an edit), phase by phase; differing phases are highlighted. */
export function DiffView() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const logged = useFork((s) => s.logged)
  const conversation = useFork((s) => s.conversation)
  const turn = useFork((s) => s.turn)
  const kind = useFork((s) => s.kind)
  const fromSeq = useFork((s) => s.fromSeq)
  const canGoBack = useFork((s) => s.conversation !== null || s.original !== null)
  const events = useRun((s) => s.events)
  const status = useRun((s) => s.status)
  const rows = useMemo(() => (logged ? diffSessions(logged, events.slice(fromSeq)) : []), [logged, events, fromSeq])
  const edit = kind === 'edit'
  if (!logged) {
    return <div className="p-6 text-sm text-slate-500">{t('diff.empty')}</div>
  }
  const changed = rows.filter((r) => !r.same).length
  return (
    <div data-testid="diff-view" className="flex h-full min-h-0 flex-col">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white px-3 py-2 text-sm">
        <span className="font-medium">
          {edit ? t('editContinue.diffTitle', { turn }) : conversation ? <Trans i18nKey="diffMore.titleOf" values={{ turn, label: conversationLabel(t, conversation) }} components={{ label: <span data-content /> }} /> : t('diff.title', { turn })}
        </span>
        <span data-testid="diff-summary" className={changed ? 'text-amber-800' : 'text-emerald-700'}>
          {status === 'running' || status === 'loading' ? t('diff.running') : changed ? t('diff.differ', { changed, total: rows.length }) : t('diff.identical')}
        </span>
        {canGoBack && (
          <button data-testid="back-to-log" className="ml-auto rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-50" onClick={() => void pg.backToLog()}>
            {edit ? t('editContinue.back') : t('diff.back')}
          </button>
        )}
        <button className="rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-50" onClick={pg.clearFork}>
          {t('diff.close')}
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-auto p-2">
        <table className="w-full table-fixed border-collapse text-xs">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="w-24 p-1">{t('diff.turnPhase')}</th>
              <th className="p-1">{edit ? t('editContinue.originalRun') : t('diff.logged')}</th>
              <th className="p-1">{edit ? t('editContinue.editedRun') : t('diff.rerun')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i} data-testid="diff-row" data-phase={row.phase} data-same={row.same} className={`border-t border-slate-200 align-top ${row.same ? '' : 'bg-amber-50'}`}>
                <td className="p-1 font-mono text-slate-500">
                  {row.phase === 'stop' ? 'stop' : `${turn + row.turn} · ${row.phase}`}
                </td>
                {[row.logged === undefined ? undefined : cellText(t, row.logged, row.loggedLines), row.rerun === undefined ? undefined : cellText(t, row.rerun, row.rerunLines)].map((cell, j) => (
                  <td key={j} className="p-1">
                    {cell === undefined ? (
                      <span className="italic text-slate-400">{j === 0 ? t('diffMore.noTurnLogged') : t('diffMore.noTurnRerun')}</span>
                    ) : (
                      <pre className={`max-h-48 overflow-auto whitespace-pre-wrap font-mono [overflow-wrap:anywhere] ${row.same ? 'text-slate-700' : 'text-slate-900'}`}>{cell}</pre>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
