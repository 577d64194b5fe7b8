import { useEvals, usePlayground, useWorkspace } from '../playground-context'

const pct = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`)

/**
 * The Evals tab: runs the workspace's cases with a progress bar and shows a pass/fail matrix,
 * each failed assertion with its expected and actual values; a case opens its session.
 */
export function EvalsView() {
  const pg = usePlayground()
  const cases = useWorkspace((s) => s.cases)
  const { running, progress, results, metrics, error } = useEvals((s) => s)
  const byId = new Map(results.map((r) => [r.id, r]))
  const types = [...new Set(cases.flatMap((c) => c.assertions.map((a) => a.type)))]
  if (cases.length === 0) {
    return (
      <div className="p-6 text-sm text-slate-600">
        This workspace has no eval cases. Import a workspace file with a <code>cases</code> list (see the README: each case has an <code>input</code>, optional scripted{' '}
        <code>outputs</code> and <code>assertions</code> such as <code>tool-used</code> or <code>final-answer</code>); <code>npx toolstep eval</code> runs the same cases.
      </div>
    )
  }
  const passed = results.filter((r) => r.passed).length
  return (
    <div className="flex flex-col gap-3 p-3 text-sm">
      <div className="flex flex-wrap items-center gap-3">
        <button data-testid="eval-run" disabled={running} onClick={() => void pg.runEvals()} className="rounded bg-slate-900 px-3 py-1 text-white disabled:opacity-50">
          {running ? 'Running…' : `Run ${cases.length} case${cases.length === 1 ? '' : 's'}`}
        </button>
        <progress data-testid="eval-progress" max={progress.total || cases.length} value={progress.done} className="h-2 w-40" aria-label="Cases run" />
        <span data-testid="eval-summary" className="text-slate-700">
          {results.length === 0
            ? `${cases.length} cases, not run yet`
            : `${passed} passed, ${results.length - passed} failed${running ? ` (${progress.done}/${progress.total})` : ''} · tool-selection accuracy ${pct(metrics?.toolSelectionAccuracy)} · argument accuracy ${pct(metrics?.argumentAccuracy)} · end-to-end success ${pct(metrics?.endToEndSuccess)}`}
        </span>
      </div>
      {error && (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      )}
      <table className="w-full border-collapse text-xs">
        <thead>
          <tr className="text-left text-slate-500">
            <th className="py-1 pr-2">Case</th>
            {types.map((t) => (
              <th key={t} className="px-1 py-1 font-mono">
                {t}
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
                title={result ? 'Open this case’s session on the timeline' : 'Not run yet'}
                onClick={() => {
                  if (pg.openEvalCase(c.id)) pg.stores.parseLab.getState().setView('loop')
                }}
              >
                <td className="py-1 pr-2">
                  <span className={result ? (result.passed ? 'text-emerald-700' : 'text-red-700') : ''}>{result ? (result.passed ? '✓' : '✗') : '·'}</span> <span className="font-medium">{c.id}</span>
                  {result?.stopReason && <span className="ml-1 text-slate-500">({result.stopReason})</span>}
                </td>
                {types.map((t) => {
                  const own = result?.assertions.filter((a) => a.type === t) ?? []
                  const declared = c.assertions.some((a) => a.type === t)
                  return (
                    <td key={t} className="px-1 py-1">
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
                              ✗ expected <code>{JSON.stringify(a.expected)}</code>, actual <code>{JSON.stringify(a.actual)}</code>
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
