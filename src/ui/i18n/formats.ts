/**
 * The i18next formats core's templates use (core/util/phrase.ts renders the same in English):
 * `{{problem, lowerFirst}}` lower-cases a nested sentence's first letter, and `{{issue, zod}}`
 * words a zod issue (core/files/file-text.ts) with zod's own locale for the language shown.
 */
import type { i18n } from 'i18next'
import { lowerFirst, wordZodIssue } from '../../core/catalogue'

/** A zod locale (`zod/v4/locales/zh-CN.js`'s default export, called). */
export type ZodLocale = { localeError: (issue: never) => unknown }

/** Registers the formats on `instance`; `zodLocale` gives zod's locale for a language (none: zod's own English message). */
export function addCoreFormats(instance: i18n, zodLocale: (language: string) => ZodLocale | undefined): void {
  instance.services.formatter?.add('lowerFirst', (value) => lowerFirst(String(value)))
  instance.services.formatter?.add('zod', (value, lng) => wordZodIssue(String(value), lng ? zodLocale(lng) : undefined))
}

/**
 * zod's locales for the Chinese UI languages, loaded on first use (a refused file is rare, so the
 * page's first load does not carry them); until loaded a zod issue shows zod's English message.
 */
export function lazyZodLocales(): (language: string) => ZodLocale | undefined {
  const loaded: Record<string, ZodLocale> = {}
  const loading = new Set<string>()
  const loaders: Record<string, () => Promise<{ default: () => ZodLocale }>> = {
    'zh-CN': () => import('zod/v4/locales/zh-CN.js'),
    'zh-TW': () => import('zod/v4/locales/zh-TW.js'),
  }
  const get = (language: string): ZodLocale | undefined => {
    const have = loaded[language]
    if (have) return have
    const load = loaders[language]
    if (load && !loading.has(language)) {
      loading.add(language)
      void load().then(
        (module) => (loaded[language] = module.default()),
        () => loading.delete(language),
      )
    }
    return undefined
  }
  return get
}

/**
 * zod's Chinese locales fetched into the module cache (call after the first paint, as the page's
 * own locales are), so a language chosen later words zod issues without a request, offline too.
 */
export function prefetchZodLocales(): void {
  void import('zod/v4/locales/zh-CN.js').catch(() => undefined)
  void import('zod/v4/locales/zh-TW.js').catch(() => undefined)
}
