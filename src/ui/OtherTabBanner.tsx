import { useTranslation } from 'react-i18next'
import { useOtherTabs } from './other-tabs'

/** Says that another tab of Toolstep is open and shares the saved code, instead of letting them clobber each other silently. */
export function OtherTabBanner() {
  const { t } = useTranslation()
  const { present, overwritten, dismissed } = useOtherTabs()
  if (!present || dismissed) return null
  return (
    <div role="alert" data-testid="other-tab" className="flex shrink-0 items-start gap-3 border-b border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-900">
      <span className="min-w-0 flex-1">
        {overwritten
          ? t('banners.otherTabOverwrote')
          : t('banners.otherTabOpen')}
      </span>
      <button aria-label={t('banners.dismiss')} className="opacity-70 hover:opacity-100" onClick={() => useOtherTabs.setState({ dismissed: true })}>
        ✕
      </button>
    </div>
  )
}
