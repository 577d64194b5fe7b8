import { useTranslation } from 'react-i18next'
import { usePlayground, useReplay } from '../playground-context'
import { fileLabel } from '../i18n/text'

/** The import running in the worker: what it is doing, how far it is, and a Cancel button. */
export function ImportProgress() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const importing = useReplay((s) => s.importing)
  if (!importing) return null
  const percent = Math.round(importing.fraction * 100)
  const file = fileLabel(t, importing.fileName, importing.fileNamePhrase)
  return (
    <div className="flex items-center gap-3 border-b border-sky-200 bg-sky-50 px-3 py-1.5 text-sm" aria-live="polite">
      <span className="min-w-0 truncate text-sky-900">
        <span className="font-medium">{t(`importing.stage.${importing.stage}`)}</span> {file}…
      </span>
      <div
        data-testid="import-progress"
        role="progressbar"
        aria-label={t('importing.label', { file })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${t(`importing.stage.${importing.stage}`)}: ${percent}%`}
        className="h-2 min-w-24 flex-1 overflow-hidden rounded-full bg-sky-100 ring-1 ring-inset ring-sky-200"
      >
        <div className="h-full rounded-full bg-sky-600 transition-[width] duration-150" style={{ width: `${percent}%` }} />
      </div>
      <span className="w-10 shrink-0 text-right font-mono text-xs tabular-nums text-sky-900">{percent}%</span>
      {importing.cancellable && (
        <button data-testid="import-cancel" onClick={pg.cancelImport} className="shrink-0 rounded border border-sky-300 bg-white px-2 py-0.5 text-xs text-sky-900 hover:bg-sky-100">
          {t('common.cancel')}
        </button>
      )}
    </div>
  )
}
