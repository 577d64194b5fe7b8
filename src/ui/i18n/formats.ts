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
  instance.services.formatter?.add('zod', (value, lng) => {
    const locale = lng ? zodLocale(lng) : undefined
    const named = locale && lng ? withJsonTypeNames(locale, (type) => typeName(instance, type, lng)) : undefined
    return wordZodIssue(String(value), named)
  })
}

/** zod's type names (`expected`, `origin`, the type received) as the validation verdicts name them (`core.validation.type*`). */
const TYPE_KEYS: Readonly<Record<string, string>> = { string: 'typeString', number: 'typeNumber', int: 'typeInteger', boolean: 'typeBoolean', object: 'typeObject', array: 'typeArray' }

function typeName(instance: i18n, type: string, lng: string): string | undefined {
  const key = TYPE_KEYS[type]
  return key ? instance.t(`core.validation.${key}`, { lng }) : undefined
}

/** The type zod's locales name for a value received (zod's `util.parsedType`, for the JSON values a stand-in can be). */
function receivedType(input: unknown): string {
  if (input === null) return 'null'
  if (Array.isArray(input)) return 'array'
  if (typeof input === 'number' && Number.isNaN(input)) return 'nan'
  return typeof input
}

/**
 * `locale` naming JSON types in the page's language: zod's Chinese locales leave most of them in
 * English ("期望 string，实际接收 object"), while every other message of the page says 字符串 and
 * 对象 (docs/glossary.md). The expected type is named before zod words the issue; the type
 * received and a size's origin (`期望 string >=1 字符`) after, where zod wrote them as they are.
 */
export function withJsonTypeNames(locale: ZodLocale, name: (type: string) => string | undefined): ZodLocale {
  return {
    localeError: (issue: never) => {
      const read = issue as { code?: unknown; expected?: unknown; origin?: unknown; input?: unknown }
      const invalidType = read.code === 'invalid_type'
      const expected = invalidType && typeof read.expected === 'string' ? name(read.expected) : undefined
      const worded = locale.localeError((expected ? { ...read, expected } : read) as never)
      const said = typeof worded === 'string' ? worded : typeof worded === 'object' && worded !== null ? (worded as { message?: unknown }).message : undefined
      if (typeof said !== 'string') return worded
      let text = said
      if (invalidType) {
        const received = receivedType(read.input)
        const named = name(received)
        if (named && text.endsWith(` ${received}`)) text = `${text.slice(0, -received.length)}${named}`
      }
      if ((read.code === 'too_small' || read.code === 'too_big') && typeof read.origin === 'string') {
        const named = name(read.origin)
        if (named) text = text.replace(` ${read.origin} `, ` ${named} `)
      }
      return text
    },
  }
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
