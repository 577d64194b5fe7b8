import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { closeHelp, SHORTCUTS, useHelp } from './shortcuts'

/** Every keyboard shortcut, opened with `?` or the toolbar's ? button; Esc closes it. */
export function ShortcutsHelp() {
  const { t } = useTranslation()
  const open = useHelp((s) => s.open)
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (open && !element.open) element.showModal()
    if (!open && element.open) element.close()
  }, [open])
  return (
    <dialog
      ref={dialog}
      data-testid="shortcuts-help"
      aria-labelledby="shortcuts-help-title"
      onClose={closeHelp}
      onClick={(event) => {
        if (event.target === event.currentTarget) closeHelp()
      }}
      className="m-auto w-[min(36rem,92vw)] rounded-lg border border-slate-300 p-0 shadow-2xl backdrop:bg-slate-900/40"
    >
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2">
        <h2 id="shortcuts-help-title" className="font-semibold text-slate-900">
          {t('shortcuts.title')}
        </h2>
        <button aria-label={t('shortcuts.close')} onClick={closeHelp} className="rounded px-2 py-0.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900">
          ✕
        </button>
      </div>
      <table className="w-full text-sm">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys} data-testid="shortcut" className="border-b border-slate-100 align-top last:border-0">
              <td className="whitespace-nowrap px-4 py-1.5">
                <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 font-mono text-xs">{s.keys}</kbd>
              </td>
              <td className="px-2 py-1.5 text-slate-800">
                {t(`shortcuts.${s.id}`)}
                <div className="text-xs text-slate-500">{t(`shortcuts.scope.${s.scope}`)}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </dialog>
  )
}
