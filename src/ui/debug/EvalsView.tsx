import { Trans, useTranslation } from 'react-i18next'
import { useEvals, usePlayground, useWorkspace } from '../playground-context'
import { corePhrase, translate } from '../i18n/text'

/** A rate as a percentage, or `null` when there is nothing to measure (shown as n/a). */
const pct = (x: number | null | undefined) => (x === null || x === undefined ? null : `${(x * 100).toFixed(1)}%`)

/**
 * The Evals tab: runs the workspace's cases with a progress bar and shows a pass/fail matrix,
 * each failed assertion with its expected and actual values; a case opens its session.
 */
export function EvalsView() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const cases = useWorkspace((s) => s.cases)
  const rate = (x: number | null | undefined) => pct(x) ?? t('evals.na')
  const { running, progress, results, metrics, error, errorPhrase } = useEvals((s) => s)
  const byId = new Map(results.map((r) => [r.id, r]))
  const types = [...new Set(cases.flatMap((c) => c.assertions.map((a) => a.type)))]
  if (cases.length === 0) {
    return (
      <div className="p-6 text-sm text-slate-600">
        <Trans i18nKey="evals.none" components={{ code: <code /> }} />
      </div>
    )
  }
  const passed = results.filter((r) => r.passed).length
  return (
    <div className="flex flex-col gap-3 p-3 text-sm">
      <div className="flex flex-wrap items-center gap-3">
        <button data-testid="eval-run" disabled={running} onClick={() => void pg.runEvals()} className="rounded bg-slate-900 px-3 py-1 text-white disabled:opacity-50">
          {running ? t('evals.running') : t('evals.run', { count: cases.length })}
        </button>
        <progress data-testid="eval-progress" max={progress.total || cases.length} value={progress.done} className="h-2 w-40" aria-label={t('evals.casesRun')} />
        <span data-testid="eval-summary" className="text-slate-700">
          {results.length === 0
            ? t('evals.notRun', { count: cases.length })
            : `${t('evals.passedFailed', { passed, failed: results.length - passed })}${running ? ` (${progress.done}/${progress.total})` : ''} · ${t('evals.metrics', { tool: rate(metrics?.toolSelectionAccuracy), args: rate(metrics?.argumentAccuracy), success: rate(metrics?.endToEndSuccess) })}`}
        </span>
      </div>
      {error && (
        <p role="alert" lang={errorPhrase ? undefined : 'en'} className="text-red-700">
          {errorPhrase ? translate(t, corePhrase('store', errorPhrase)) : error}
        </p>
      )}
      <table className="w-full border-collapse text-xs">
        <thead>
          <tr className="text-left text-slate-500">
            <th className="py-1 pr-2">{t('evals.case')}</th>
            {types.map((type) => (
              <th key={type} className="px-1 py-1 font-mono">
                {type}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {cases.map((c) => {
            const result = byId.get(c.id)
            return (
              <tr
                key={c.id}
                data-testid="eval-case"
                data-case-id={c.id}
                data-passed={result ? String(result.passed) : undefined}
                className={`cursor-pointer border-t border-slate-200 align-top hover:bg-slate-50 ${result ? (result.passed ? '' : 'bg-red-50/40') : 'text-slate-400'}`}
                title={result ? t('evals.openCase') : t('evals.notRunYet')}
                onClick={() => {
                  if (pg.openEvalCase(c.id)) pg.stores.parseLab.getState().setView('loop')
                }}
              >
                <td className="py-1 pr-2">
                  <span className={result ? (result.passed ? 'text-emerald-700' : 'text-red-700') : ''}>{result ? (result.passed ? '✓' : '✗') : '·'}</span> <span className="whitespace-nowrap font-mono font-medium">{c.id}</span>
                  {result?.stopReason && <span className="ml-1 text-slate-500">({result.stopReason})</span>}
                </td>
                {types.map((type) => {
                  const own = result?.assertions.filter((a) => a.type === type) ?? []
                  const declared = c.assertions.some((a) => a.type === type)
                  return (
                    <td key={type} className="px-1 py-1">
                      {!declared ? (
                        ''
                      ) : own.length === 0 ? (
                        '·'
                      ) : (
                        own.map((a, i) =>
                          a.passed ? (
                            <span key={i} className="text-emerald-700">
                              ✓{' '}
                            </span>
                          ) : (
                            <div key={i} data-testid="eval-failure" className="text-red-800">
                              ✗ <Trans i18nKey="evals.failure" values={{ expected: JSON.stringify(a.expected), actual: JSON.stringify(a.actual) }} components={{ code: <code /> }} />
                            </div>
                          ),
                        )
                      )}
                    </td>
                  )
                })}
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
