/**
 * The UI languages and how the first one is chosen: the saved choice, else the browser's
 * preferred languages, else English.
 */

/** Language codes the UI ships, in the order the switch lists them. */
export const LANGUAGES = ['en', 'zh-CN', 'zh-TW'] as const
export type Language = (typeof LANGUAGES)[number]

/** Each language's name in itself, for the switch. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', 'zh-CN': '简体中文', 'zh-TW': '繁體中文' }

/** localStorage key of the user's choice. */
export const LANGUAGE_KEY = 'toolstep.language'

/** `value` when it is one of {@link LANGUAGES}, else `undefined`. */
export function asLanguage(value: unknown): Language | undefined {
  return (LANGUAGES as readonly unknown[]).includes(value) ? (value as Language) : undefined
}

/**
 * The UI language for a BCP 47 tag such as `zh-Hant-HK` or `en-GB`: Traditional Chinese for
 * `zh-TW`, `zh-HK`, `zh-MO` and any `zh-Hant`; Simplified for every other `zh`; English for
 * anything else. `undefined` for a tag no language matches better than the default.
 */
export function languageForTag(tag: string): Language | undefined {
  const parts = tag.toLowerCase().split(/[-_]/)
  if (parts[0] === 'en') return 'en'
  if (parts[0] !== 'zh') return undefined
  if (parts.includes('hant') || parts.some((p) => p === 'tw' || p === 'hk' || p === 'mo')) return 'zh-TW'
  return 'zh-CN'
}

/** The first language to show: `saved` when valid, else the first browser tag that maps, else `en`. */
export function initialLanguage(saved: string | null | undefined, browserTags: readonly string[]): Language {
  const chosen = asLanguage(saved)
  if (chosen) return chosen
  for (const tag of browserTags) {
    const language = languageForTag(tag)
    if (language) return language
  }
  return 'en'
}

function readSaved(): string | null {
  try {
    return globalThis.localStorage?.getItem(LANGUAGE_KEY) ?? null
  } catch {
    return null
  }
}

function browserTags(): readonly string[] {
  const nav = globalThis.navigator as Navigator | undefined
  return nav?.languages?.length ? nav.languages : nav?.language ? [nav.language] : []
}

/** The language the page starts in: the saved choice, else the browser's, else English. */
export function startLanguage(): Language {
  return initialLanguage(readSaved(), browserTags())
}

/**
 * Keeps the language an i18next instance switches to: saved under {@link LANGUAGE_KEY} and set
 * as the document's `lang` (now, and on every change).
 */
export function rememberLanguage(instance: { language: string; on(event: 'languageChanged', listener: (lng: string) => void): unknown }): void {
  instance.on('languageChanged', (lng) => {
    try {
      globalThis.localStorage?.setItem(LANGUAGE_KEY, lng)
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    if (typeof document !== 'undefined') document.documentElement.lang = lng
  })
  if (typeof document !== 'undefined') document.documentElement.lang = instance.language
}
