/**
 * i18next for the page, loading translations on demand: only the active language's locale file
 * is fetched before the first paint (each file is its own chunk of the build, served by the
 * app's own origin — nothing leaves it). English, the fallback, is fetched only when the active
 * language lacks a key, or when English is chosen. The other languages are fetched right after
 * the first paint ({@link prefetchLanguages}), so a later switch works even when the server has
 * gone away. The choice is remembered in localStorage, as with {@link createI18n} (index.ts),
 * which bundles every language synchronously for tests and tools.
 */
import i18next, { type BackendModule, type i18n } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { LANGUAGES, rememberLanguage, startLanguage, type Language } from './languages'
import { addCoreFormats, lazyZodLocales, prefetchZodLocales } from './formats'

type Translation = Record<string, unknown>

/** One dynamic import per locale file, so the build emits one chunk per language. */
const LOADERS: Record<Language, () => Promise<Translation>> = {
  en: () => import('./locales/en.json').then((m) => m.default as Translation),
  'zh-CN': () => import('./locales/zh-CN.json').then((m) => m.default as Translation),
  'zh-TW': () => import('./locales/zh-TW.json').then((m) => m.default as Translation),
}


export { startLanguage }

/** Per i18next instance: whether English is in its store, and English text added before it was. */
interface EnglishState {
  loaded: boolean
  pending: Translation[]
}
const english = new WeakMap<i18n, EnglishState>()

/** `target` with `source` merged in, nested objects merged key by key (source wins). */
function deepMerge(target: Translation, source: Translation): Translation {
  const out: Translation = { ...target }
  for (const [key, value] of Object.entries(source)) {
    const current = out[key]
    out[key] = isTree(value) && isTree(current) ? deepMerge(current, value) : value
  }
  return out
}

function isTree(value: unknown): value is Translation {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Makes the page's i18next instance and resolves once `language`'s translations are loaded
 * (English too only when `language` is English). Rejects when the locale chunk cannot be
 * fetched (the page's own server is gone).
 */
export async function createLazyI18n(language: Language = startLanguage()): Promise<i18n> {
  const instance = i18next.createInstance()
  const state: EnglishState = { loaded: false, pending: [] }
  english.set(instance, state)
  const backend: BackendModule = {
    type: 'backend',
    init() {},
    read(lng, _namespace, callback) {
      const load = LOADERS[lng as Language] as (() => Promise<Translation>) | undefined
      if (!load) {
        callback(null, {})
        return
      }
      load().then(
        (data) => {
          if (lng !== 'en') return callback(null, data)
          // English text the app added before English was loaded (see addEnglish) joins it now.
          const merged = state.pending.reduce(deepMerge, data)
          state.pending = []
          state.loaded = true
          callback(null, merged)
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
      )
    },
  }
  await instance
    .use(backend)
    .use(initReactI18next)
    .init({
      lng: language,
      // English is the fallback once it is loaded; until then a missing key loads it (below).
      fallbackLng: () => (state.loaded ? ['en'] : []),
      supportedLngs: [...LANGUAGES],
      load: 'currentOnly',
      interpolation: { escapeValue: false }, // React escapes already
      returnNull: false,
      saveMissing: true,
      missingKeyHandler: () => {
        if (!state.loaded && instance.language !== 'en') void instance.loadLanguages('en')
      },
      // A language arriving later (English as fallback) re-renders what it translates.
      react: { bindI18nStore: 'added' },
    })
  const zodLocale = lazyZodLocales()
  addCoreFormats(instance, zodLocale)
  // Its own chunk, fetched with the language rather than when a refused file is first shown.
  zodLocale(instance.language)
  instance.on('languageChanged', (lng) => zodLocale(lng))
  rememberLanguage(instance)
  return instance
}

/**
 * Adds English text built at run time (the `core` namespace from core's own English, see
 * core-text.ts) to `instance`: now when English is loaded, else when it is (so English is not
 * fetched just for this).
 */
export function addEnglish(instance: i18n, text: Translation): void {
  const state = english.get(instance)
  if (!state || state.loaded || instance.hasResourceBundle('en', 'translation')) {
    instance.addResourceBundle('en', 'translation', text, true, true)
    return
  }
  state.pending.push(text)
}

/**
 * Fetches every other language's locale chunk into the module cache (call after the first
 * paint), so switching language later needs no request. Failures are ignored: the switch then
 * fetches again.
 */
export function prefetchLanguages(instance: i18n): void {
  for (const language of LANGUAGES) {
    if (language !== instance.language) void LOADERS[language]().catch(() => undefined)
  }
  prefetchZodLocales()
}
