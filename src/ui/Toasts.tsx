import { useTranslation } from 'react-i18next'
import { dismissToast, useToasts } from './toasts'
import { translate } from './i18n/text'

const STYLE = {
  notice: 'border-slate-300 bg-slate-800 text-white',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  error: 'border-red-300 bg-red-700 text-white',
} as const

/** The message strip under the toolbar: part of the layout, so it never covers what the user looks at. */
export function Toasts() {
  const { t: tr } = useTranslation()
  const toasts = useToasts((s) => s.toasts)
  if (toasts.length === 0) return null
  return (
    <div className="flex shrink-0 flex-col gap-px border-b border-slate-200">
      {toasts.map((t) => (
        <div key={t.id} role={t.kind === 'notice' ? 'status' : 'alert'} data-testid="toast" data-kind={t.kind} className={`flex items-start gap-3 px-3 py-1.5 text-sm ${STYLE[t.kind]}`}>
          <span className="min-w-0 flex-1 whitespace-pre-wrap [overflow-wrap:anywhere]">{translate(tr, t.message)}</span>
          {t.action && (
            <button
              data-testid="toast-action"
              className="rounded border border-current px-2 text-xs font-semibold"
              onClick={() => {
                dismissToast(t.id)
                t.action?.run()
              }}
            >
              {translate(tr, t.action.label)}
            </button>
          )}
          <button aria-label={tr('banners.dismiss')} className="opacity-70 hover:opacity-100" onClick={() => dismissToast(t.id)}>
            ✕
          </button>
        </div>
      ))}
    </div>
  )
}
