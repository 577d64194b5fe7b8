import { useEffect, useRef } from 'react'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { useCatalogue, usePlayground } from '../playground-context'
import { ANOMALY_CATALOGUE, describeAnomaly } from '../../core/catalogue'
import { coreDetail, type CorePhrase } from '../i18n/text'

/** Tooltip text for anomaly flags: code, catalogue title and explanation, then what was found. */
export function anomalyTooltip(t: TFunction, flags: readonly AnomalyText[]): string {
  return flags
    .map((flag) => {
      const entry = describeAnomaly(flag.code)
      const detail = anomalyDetail(t, flag)
      return entry ? `${flag.code} — ${anomalyTitle(t, flag.code)}\n${detail}\n${t('anomalyCatalogue.why', { explanation: anomalyExplanation(t, flag.code) })}` : `${flag.code}\n${detail}`
    })
    .join('\n\n')
}

/** An anomaly (or a warning, `ns: 'loop'`) as the UI gets it: its English detail and, in newer files, the detail's phrase. */
export interface AnomalyText {
  code: string
  detail: string
  phrase?: CorePhrase
  ns?: 'trace' | 'loop'
}

/** What was found, in `t`'s language: the detail's phrase translated, or the English detail of an older file. */
export function anomalyDetail(t: TFunction, flag: AnomalyText): string {
  return coreDetail(t, flag.ns ?? 'trace', flag)
}

/** The catalogue title of `code` in `t`'s language (core's English is the fallback). */
export function anomalyTitle(t: TFunction, code: string): string {
  return t(`core.anomaly.${code}.title`, { defaultValue: describeAnomaly(code)?.title ?? code })
}

/** The catalogue explanation of `code` in `t`'s language. */
export function anomalyExplanation(t: TFunction, code: string): string {
  return t(`core.anomaly.${code}.explanation`, { defaultValue: describeAnomaly(code)?.explanation ?? '' })
}

/** An anomaly code that opens its catalogue entry (the app works offline, so the catalogue is in the app). */
export function AnomalyCodeLink({ code, className = '' }: { code: string; className?: string }) {
  const { t } = useTranslation()
  const pg = usePlayground()
  return (
    <a
      href={`#anomaly-${code}`}
      data-testid="anomaly-code"
      title={describeAnomaly(code) ? anomalyExplanation(t, code) : t('anomalyCatalogue.open')}
      onClick={(event) => {
        event.preventDefault()
        pg.stores.catalogue.getState().open(code)
      }}
      className={`font-mono font-semibold underline decoration-dotted underline-offset-2 hover:decoration-solid ${className}`}
    >
      {code}
    </a>
  )
}

/** The anomaly catalogue: every code with its title, explanation and an example, scrolled to the chosen one. */
export function AnomalyCatalogueDialog() {
  const { t } = useTranslation()
  const code = useCatalogue((s) => s.code)
  const close = useCatalogue((s) => s.close)
  const dialog = useRef<HTMLDialogElement>(null)

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (code === null) {
      if (element.open) element.close()
      return
    }
    if (!element.open) element.showModal()
    element.querySelector(`#anomaly-${CSS.escape(code)}`)?.scrollIntoView({ block: 'start' })
  }, [code])

  return (
    <dialog
      ref={dialog}
      data-testid="anomaly-catalogue"
      aria-labelledby="anomaly-catalogue-title"
      onClose={close}
      onClick={(event) => {
        if (event.target === event.currentTarget) close()
      }}
      className="m-auto max-h-[80vh] w-[min(48rem,92vw)] rounded-lg border border-slate-300 p-0 shadow-2xl backdrop:bg-slate-900/40"
    >
      <div className="sticky top-0 flex items-center justify-between border-b border-slate-200 bg-white px-4 py-2">
        <h2 id="anomaly-catalogue-title" className="font-semibold text-slate-900">
          {t('anomalyCatalogue.title')}
        </h2>
        <button aria-label={t('anomalyCatalogue.close')} onClick={close} className="rounded px-2 py-0.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900">
          ✕
        </button>
      </div>
      <ul className="flex flex-col gap-2 p-3 text-sm">
        {ANOMALY_CATALOGUE.map((entry) => (
          <li
            key={entry.code}
            id={`anomaly-${entry.code}`}
            data-testid="catalogue-entry"
            data-code={entry.code}
            aria-current={entry.code === code ? 'true' : undefined}
            className={`scroll-mt-12 rounded-md border p-2 ${entry.code === code ? 'border-red-300 bg-red-50' : 'border-slate-200 bg-white'}`}
          >
            <div className="flex flex-wrap items-baseline gap-2">
              <span className="font-mono text-xs font-semibold text-red-800">{entry.code}</span>
              <span className="font-medium text-slate-900">{anomalyTitle(t, entry.code)}</span>
            </div>
            <p className="mt-0.5 text-slate-700">{anomalyExplanation(t, entry.code)}</p>
            <details className="mt-1 text-xs">
              <summary className="cursor-pointer text-slate-500">{t('anomalyCatalogue.example', { count: entry.example.messages.length })}</summary>
              <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-1.5 font-mono text-[11px] text-slate-700 [overflow-wrap:anywhere]">
                {entry.example.messages.map((message) => JSON.stringify(message, (_key, value: unknown) => (typeof value === 'string' && value.length > 200 ? `${value.slice(0, 60)}… (${value.length} chars)` : value))).join('\n')}
              </pre>
            </details>
          </li>
        ))}
      </ul>
    </dialog>
  )
}
