import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { toTraditional } from '../../../scripts/zh-tw-convert.mjs'
import { NARRATION_KEYS } from '../../core/narration'
import { lessons } from '../../lessons/index'
import zhCN from './locales/zh-CN.json'
import zhTW from './locales/zh-TW.json'
import { createI18n, resources } from './index'
import { initialLanguage, languageForTag } from './languages'

type Tree = { [key: string]: string | Tree }

/** Every leaf key of `tree`, dotted, with its text. */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') out.set(path, value)
    else for (const [k, v] of leaves(value, path)) out.set(k, v)
  }
  return out
}

/** A key has text when it exists as is or in both plural forms (`key_one` / `key_other`, picked by `count`). */
const hasText = (map: Map<string, string>, key: string) => map.has(key) || (map.has(`${key}_one`) && map.has(`${key}_other`))

// English includes the `core` namespace that core-text.ts builds from core's own English.
const LANGS = { en: leaves(resources.en.translation as unknown as Tree), 'zh-CN': leaves(zhCN), 'zh-TW': leaves(zhTW) }
const glossary = readFileSync(new URL('../../../docs/glossary.md', import.meta.url), 'utf8')
// `{{name}}` and `{{name, format}}` (a formatter such as lowerFirst, which Chinese has no need of).
const params = (text: string) => [...text.matchAll(/\{\{(\w+)(?:, *\w+)?\}\}/g)].map((m) => m[1]).sort()

describe('translation resources', () => {
  it('every key exists in every language', () => {
    const all = new Set(Object.values(LANGS).flatMap((m) => [...m.keys()]))
    for (const [lang, map] of Object.entries(LANGS)) {
      expect([...all].filter((key) => !map.has(key)), `missing in ${lang}`).toEqual([])
    }
  })

  it('the key-parity check fails when a key exists in one language only', () => {
    const extra = leaves({ ...(zhCN as Tree), onlyHere: 'x' })
    expect([...extra.keys()].filter((key) => !LANGS.en.has(key))).toEqual(['onlyHere'])
  })

  it('a translation uses the same {{parameters}} as the English text, and none is empty', () => {
    for (const [key, text] of LANGS.en) {
      for (const lang of ['zh-CN', 'zh-TW'] as const) {
        const other = LANGS[lang].get(key) ?? ''
        expect(other.trim(), `${lang} ${key}`).not.toBe('')
        expect(params(other), `${lang} ${key}`).toEqual(params(text))
      }
    }
  })

  it('Chinese strings are Chinese (no untranslated English text left)', () => {
    for (const lang of ['zh-CN', 'zh-TW'] as const) {
      for (const [key, text] of LANGS[lang]) {
        // Identifiers, code and wire-format names stay; prose must carry CJK characters.
        const prose = text.replace(/\{\{\w+\}\}|`[^`]*`|<[^>]*>|\[[^\]]*\]|\{[^}]*\}|"[^"]*"|[\w.*\-]+\(?\)?/g, '')
        if (key === 'lang.label' || !/[a-z]{3}/i.test(text)) continue
        // Parameters joined by punctuation alone (`{{head}}；{{tail}}`) have no prose to translate.
        expect(/[\u4e00-\u9fff]/.test(prose) || prose.replace(/[\p{P}\p{S}\s]/gu, '') === '', `${lang} ${key}: ${text}`).toBe(true)
      }
    }
  })

  it('zh-CN follows the glossary: no term it says to avoid', () => {
    const avoid = glossary
      .split('\n')
      .map((line) => line.split('|').map((c) => c.trim()))
      .filter((cells) => cells.length >= 6 && cells[1] !== 'English' && !/^-+$/.test(cells[1] ?? ''))
      .flatMap((cells) => (cells[4] ?? '').split(/[,，]/).map((w) => w.trim()).filter(Boolean))
    expect(avoid.length).toBeGreaterThan(5)
    for (const [key, text] of LANGS['zh-CN']) {
      expect(avoid.filter((word) => text.includes(word)), key).toEqual([])
    }
  })

  it('"replay" is 回放 in both Chinese languages, never 重放 (the glossary\'s choice)', () => {
    expect(glossary).toMatch(/^\| replay \(a logged session\) \| 回放 \| 回放 \| 重放 \|$/m)
    for (const lang of ['zh-CN', 'zh-TW'] as const) {
      expect([...LANGS[lang]].filter(([, text]) => text.includes('重放')).map(([key]) => key), lang).toEqual([])
      expect([...LANGS[lang].values()].some((text) => text.includes('回放')), lang).toBe(true)
    }
  })

  it('zh-TW.json is what scripts/zh-tw.mjs makes from zh-CN.json and the glossary', () => {
    expect(toTraditional(zhCN, glossary)).toEqual(zhTW)
    expect(JSON.stringify(zhTW)).not.toMatch(/[这个们说么发]/) // Simplified-only characters
  })

  it('every lesson and every narration key has its text', () => {
    for (const lesson of lessons) {
      for (const part of ['title', 'goal', 'watch', 'question'])
        expect(LANGS.en.has(`lessons.${lesson.id}.${part}`), `${lesson.id}.${part}`).toBe(true)
      expect(LANGS.en.has(`lessons.${lesson.id}.challenge`), `${lesson.id}.challenge`).toBe(lesson.challenge !== undefined)
    }
    for (const key of NARRATION_KEYS) expect(hasText(LANGS.en, `narration.${key}`), key).toBe(true)
  })
})

describe('language choice', () => {
  it('maps browser tags: Hant, TW, HK to zh-TW; other zh to zh-CN; English; nothing for others', () => {
    expect(['zh-TW', 'zh-Hant', 'zh-HK', 'zh-Hant-MO'].map(languageForTag)).toEqual(['zh-TW', 'zh-TW', 'zh-TW', 'zh-TW'])
    expect(['zh', 'zh-CN', 'zh-Hans-SG'].map(languageForTag)).toEqual(['zh-CN', 'zh-CN', 'zh-CN'])
    expect(languageForTag('en-GB')).toBe('en')
    expect(languageForTag('fr-FR')).toBeUndefined()
  })

  it('a saved choice wins over the browser, the first browser tag that maps wins, English is the last resort', () => {
    expect(initialLanguage('zh-TW', ['en-US'])).toBe('zh-TW')
    expect(initialLanguage('klingon', ['fr', 'zh-CN', 'en'])).toBe('zh-CN')
    expect(initialLanguage(null, ['fr', 'de'])).toBe('en')
  })

  it('an instance translates in the language asked for', () => {
    const i18n = createI18n('zh-CN')
    expect(i18n.t('diagram.phase.backfill')).toBe('回填')
    void i18n.changeLanguage('zh-TW')
    expect(i18n.t('narration.parseOne', { name: 'get_weather' })).toBe('模型請求了一個工具：get_weather。')
  })
})
