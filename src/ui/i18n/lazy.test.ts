import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { addEnglish, createLazyI18n, prefetchLanguages, startLanguage } from './lazy'
import { LANGUAGE_KEY } from './languages'

/** Resolves once `check` holds (i18next loads a language asynchronously). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(check()).toBe(true)
}

describe('translations loaded on demand', () => {
  // The page's storage and root element, as far as the language switch uses them.
  const saved = new Map<string, string>()
  const root = { lang: '' }
  beforeAll(() => {
    vi.stubGlobal('localStorage', { getItem: (key: string) => saved.get(key) ?? null, setItem: (key: string, value: string) => void saved.set(key, value) })
    vi.stubGlobal('document', { documentElement: root })
  })
  afterAll(() => vi.unstubAllGlobals())

  it('starts with only the active language loaded, English left out', async () => {
    const i18n = await createLazyI18n('zh-CN')
    expect(i18n.t('diagram.phase.backfill')).toBe('回填')
    expect(i18n.hasResourceBundle('zh-CN', 'translation')).toBe(true)
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(false)
    expect(i18n.hasResourceBundle('zh-TW', 'translation')).toBe(false)
  })

  it('loads English when a key is missing in the active language, then falls back to it', async () => {
    const i18n = await createLazyI18n('zh-CN')
    addEnglish(i18n, { onlyInEnglish: 'English text' })
    // English is not fetched just for added text.
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(false)
    expect(i18n.t('onlyInEnglish')).toBe('onlyInEnglish')
    await until(() => i18n.hasResourceBundle('en', 'translation'))
    expect(i18n.t('onlyInEnglish')).toBe('English text')
    // The added text joined English's own file, and the active language still wins.
    expect(i18n.getResource('en', 'translation', 'app.editors')).toBe('Editors')
    expect(i18n.t('app.editors')).toBe('编辑器')
  })

  it('adds English text at once when English is the language', async () => {
    const i18n = await createLazyI18n('en')
    addEnglish(i18n, { core: { example: { weather: { title: 'Weather' } } } })
    expect(i18n.t('core.example.weather.title')).toBe('Weather')
    expect(i18n.t('app.editors')).toBe('Editors')
  })

  it('switches language after loading its file, and remembers the choice', async () => {
    const i18n = await createLazyI18n('en')
    prefetchLanguages(i18n)
    await i18n.changeLanguage('zh-TW')
    expect(i18n.language).toBe('zh-TW')
    expect(i18n.t('narration.parseOne', { name: 'get_weather' })).toBe('模型請求了一個工具：get_weather。')
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('zh-TW')
    expect(root.lang).toBe('zh-TW')
    expect(startLanguage()).toBe('zh-TW')
  })
})
