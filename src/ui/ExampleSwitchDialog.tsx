import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { answerExampleSwitch, useExampleSwitch } from './example-switch'
import { usePlayground } from './playground-context'
import { translate } from './i18n/text'

/** Asks before an example or a lesson replaces edited code. Esc (or Keep) keeps the edits. */
export function ExampleSwitchDialog() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const pending = useExampleSwitch((s) => s.pending)
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (pending && !element.open) element.showModal()
    if (!pending && element.open) element.close()
  }, [pending])
  return (
    <dialog
      ref={dialog}
      data-testid="example-switch"
      aria-labelledby="example-switch-title"
      onClose={() => answerExampleSwitch(pg, false)}
      className="m-auto w-[min(30rem,92vw)] rounded-lg border border-slate-300 p-4 shadow-2xl backdrop:bg-slate-900/40"
    >
      <h2 id="example-switch-title" className="font-semibold text-slate-900">
        {t('banners.switchTitle')}
      </h2>
      <p className="mt-2 text-sm text-slate-700">
        {t('banners.switchText', { title: pending ? translate(t, pending.title) : '' })}
      </p>
      <div className="mt-4 flex justify-end gap-2">
        <button data-testid="example-switch-keep" autoFocus onClick={() => answerExampleSwitch(pg, false)} className="rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50">
          {t('banners.keepCode')}
        </button>
        <button data-testid="example-switch-replace" onClick={() => answerExampleSwitch(pg, true)} className="rounded-md border border-sky-700 bg-sky-600 px-3 py-1 text-sm font-medium text-white hover:bg-sky-700">
          {t('banners.replace')}
        </button>
      </div>
    </dialog>
  )
}
