import { useTranslation } from 'react-i18next'
import { LANGUAGES, LANGUAGE_NAMES, asLanguage } from './languages'

/** The language switch (`lang-select`); i18next remembers the choice in localStorage. */
export function LanguageSelect({ className = 'rounded border border-slate-600 bg-slate-800 px-1.5 py-1 text-sm text-white' }: { className?: string }) {
  const { t, i18n } = useTranslation()
  const current = asLanguage(i18n.resolvedLanguage) ?? 'en'
  return (
    <select
      data-testid="lang-select"
      aria-label={t('lang.label')}
      value={current}
      onChange={(e) => void i18n.changeLanguage(e.target.value)}
      className={className}
    >
      {LANGUAGES.map((lang) => (
        <option key={lang} value={lang} lang={lang}>
          {LANGUAGE_NAMES[lang]}
        </option>
      ))}
    </select>
  )
}
