/**
 * i18next with every language bundled and loaded synchronously, for tests and tools that need
 * all translations at once: the saved choice or the browser's language as the start, and the
 * choice remembered in localStorage. The page itself loads one language at a time (lazy.ts).
 */
import i18next, { type i18n } from 'i18next'
import { initReactI18next } from 'react-i18next'
import en from './locales/en.json'
import zhCN from './locales/zh-CN.json'
import zhTW from './locales/zh-TW.json'
import { rememberLanguage, startLanguage, type Language } from './languages'
import { coreEnglish } from './core-text'
import zodZhCN from 'zod/v4/locales/zh-CN.js'
import zodZhTW from 'zod/v4/locales/zh-TW.js'
import { addCoreFormats, type ZodLocale } from './formats'

/** zod's own translations of its messages (a refused file's issues), by UI language; English keeps zod's message. */
const ZOD_LOCALES: Readonly<Record<string, ZodLocale>> = { 'zh-CN': zodZhCN(), 'zh-TW': zodZhTW() }

export { LANGUAGES, LANGUAGE_NAMES, asLanguage, type Language } from './languages'

/**
 * The bundled translations, one object per language (same keys in each; a unit test checks).
 * English text owned by core and the examples joins en.json under `core` (see core-text.ts).
 */
export const resources = { en: { translation: { ...en, core: coreEnglish() } }, 'zh-CN': { translation: zhCN }, 'zh-TW': { translation: zhTW } } as const


/**
 * Makes an i18next instance with every resource loaded and `language` (default: the saved
 * choice or the browser's) selected. Synchronous: resources are bundled, nothing is fetched.
 */
export function createI18n(language: Language = startLanguage()): i18n {
  const instance = i18next.createInstance()
  void instance.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'en',
    supportedLngs: ['en', 'zh-CN', 'zh-TW'],
    interpolation: { escapeValue: false }, // React escapes already
    returnNull: false,
    initAsync: false,
  })
  // Formats core's templates use (see core/util/phrase.ts and core/files/file-text.ts).
  addCoreFormats(instance, (lng) => ZOD_LOCALES[lng])
  rememberLanguage(instance)
  return instance
}
