import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { useStore } from 'zustand'
import { diffTwoSessions, type SessionDiff } from '../../core/debug'
import type { CompareSide } from '../../store/compare-controller'
import { usePlayground, useRun } from '../playground-context'
import { cellText, corePhrase, translate } from '../i18n/text'

function Picker({ id, side, onOpen }: { id: 'a' | 'b'; side: CompareSide; onOpen?: () => void }) {
  const { t } = useTranslation()
  const pg = usePlayground()
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="font-medium">{id.toUpperCase()}:</span>
      <input
        type="file"
        accept=".json,.jsonl,.ndjson,.sse,application/json"
        data-testid={`compare-file-${id}`}
        className="text-xs"
        onChange={(e) => {
          const file = e.target.files?.[0]
          // Read in the import worker, never on the page: the file may be a big log.
          if (file) void pg.compareFile(id, file)
        }}
      />
      {onOpen && (
        <button className="rounded border border-slate-300 px-1.5 text-xs" onClick={onOpen}>
          {t('compare.useOpen')}
        </button>
      )}
      {side?.status === 'reading' && (
        <span data-testid={`compare-progress-${id}`} className="flex items-center gap-1 text-xs text-slate-600">
          {side.name} · {t(`compareProgress.stage.${side.stage}`)}
          <progress max={1} value={side.fraction} aria-label={t('compareProgress.label', { name: side.name })} className="h-2 w-24" />
          {Math.round(side.fraction * 100)} %
        </span>
      )}
      {side?.status === 'failed' && (
        <span data-testid={`compare-error-${id}`} className="text-xs text-red-700">
          {side.name}: <span lang={side.errorPhrase ? undefined : 'en'}>{side.errorPhrase ? translate(t, corePhrase(side.errorPhrase.ns, side.errorPhrase)) : side.error}</span>
        </span>
      )}
      {side?.status === 'ready' && (
        <span className="text-xs text-slate-600">
          {side.name} {t('compare.events', { count: side.events.length })}
          {side.conversations > 1 && ` · ${t('compareProgress.firstOf', { count: side.conversations })}`}
        </span>
      )}
    </div>
  )
}

/** Diff of any two sessions: session files, logged conversations or the open session, turn by turn. */
export function CompareView() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const hasOpen = useRun((s) => s.events.length > 0)
  const a = useStore(pg.stores.compare, (s) => s.a)
  const b = useStore(pg.stores.compare, (s) => s.b)
  const diff: SessionDiff | null = useMemo(() => (a?.status === 'ready' && b?.status === 'ready' ? diffTwoSessions(a.events, b.events) : null), [a, b])
  const useOpen = (side: 'a' | 'b') => (hasOpen ? () => void pg.compareOpenSession(side, t('compare.openSession')) : undefined)
  return (
    <div className="flex flex-col gap-2 p-3 text-sm">
      <Picker id="a" side={a} onOpen={useOpen('a')} />
      <Picker id="b" side={b} onOpen={useOpen('b')} />
      {diff && (
        <>
          <p data-testid="compare-summary" className={diff.same ? 'text-emerald-700' : 'text-red-800'}>
            {diff.firstDifference ? t('compare.differ', { turn: diff.firstDifference.turn, aspect: diff.firstDifference.aspect, changed: diff.rows.filter((r) => !r.same).length, total: diff.rows.length }) : t('compare.agree')}
          </p>
          <table className="w-full border-collapse text-xs">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="pr-2">{t('compare.turn')}</th>
                <th className="pr-2">{t('compare.aspect')}</th>
                <th className="pr-2">A</th>
                <th>B</th>
              </tr>
            </thead>
            <tbody>
              {diff.rows.map((row, i) => (
                <tr key={i} data-testid="compare-row" data-same={String(row.same)} className={`border-t border-slate-200 align-top ${row.same ? 'text-slate-500' : 'bg-red-50'}`}>
                  <td className="pr-2">{row.aspect === 'stop' ? t('compare.end') : row.turn}</td>
                  <td className="pr-2 font-mono">{row.aspect}</td>
                  <td className="whitespace-pre-wrap pr-2 font-mono">{row.a === null ? '—' : cellText(t, row.a, row.aLines)}</td>
                  <td className="whitespace-pre-wrap font-mono">{row.b === null ? '—' : cellText(t, row.b, row.bLines)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  )
}
