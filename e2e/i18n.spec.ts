/**
 * The whole app in 简体中文: every view, tab, panel and dialog a user can reach holds no English
 * UI text, in what is shown and in the tooltips, labels and placeholders read aloud. Screenshots
 * of each stage go to test-results/i18n-*.png.
 */
import path from 'node:path'
import type { Page } from '@playwright/test'
import { expect, openApp, setEditor, sharedPage, test } from './fixtures'
import { englishIn } from './i18n-words'

const fixtures = path.join(import.meta.dirname, '..', 'src', 'core', '__fixtures__')
const shot = (name: string) => `test-results/i18n-${name}.png`

async function expectChinese(page: Page, where: string, root?: string) {
  expect.soft(await englishIn(page, root), where).toEqual([])
}

async function openInChinese(page: Page) {
  await openApp(page)
  await page.getByTestId('lang-select').selectOption('zh-CN')
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN')
}

test('the playground in 简体中文: toolbar, editors, settings, timeline, conversation, inspector, breakpoints, model source and the help', async ({ page }) => {
  await openInChinese(page)
  await expectChinese(page, 'start page')
  await page.screenshot({ path: shot('start') })

  // Settings and the system prompt opened; a breakpoint added; the endpoint fields shown.
  for (const details of await page.locator('details').all()) if (await details.isVisible()) await details.evaluate((d) => ((d as HTMLDetailsElement).open = true))
  await page.getByTestId('breakpoint-add').click()
  await page.getByTestId('model-source').selectOption('endpoint')
  await expectChinese(page, 'settings, system prompt, breakpoints, endpoint')
  await page.screenshot({ path: shot('settings') })
  await page.getByTestId('model-source').selectOption('mock')
  await page.getByTestId('breakpoint-delete').click()

  // A run: every timeline row and the inspector at each.
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toBeVisible()
  const rows = await page.getByTestId('timeline-item').count()
  for (let i = 0; i < rows; i++) {
    await page.getByTestId('timeline-item').nth(i).click()
    await expectChinese(page, `run, row ${i}`)
  }
  await page.screenshot({ path: shot('run') })
  await page.locator('[data-testid="timeline-view"] input[value="conversation"]').check({ force: true })
  await expect(page.getByTestId('message-card').first()).toBeVisible()
  await expectChinese(page, 'conversation view')
  await page.screenshot({ path: shot('conversation') })
  await page.locator('[data-testid="timeline-view"] input[value="phases"]').check({ force: true })

  // The editors as tabs, then the shortcut help.
  await page.getByTestId('editor-layout').click()
  await expectChinese(page, 'editors as tabs')
  await page.getByTestId('editor-layout').click()
  await page.locator('body').press('?')
  await expect(page.getByTestId('shortcuts-help')).toBeVisible()
  await expectChinese(page, 'shortcut help', '[data-testid="shortcuts-help"]')
  await page.screenshot({ path: shot('help') })
})

test('in 简体中文: the example-switch dialog, its undo toast, the confirm dialog and a code problem', async ({ page }) => {
  await openInChinese(page)
  await setEditor(page, 'model.ts', 'export default () => "mine"')
  await page.getByTestId('example-select').selectOption('dangerous-tool')
  await expect(page.getByTestId('example-switch')).toBeVisible()
  await expectChinese(page, 'example-switch dialog', '[data-testid="example-switch"]')
  await page.getByTestId('example-switch-replace').click()
  await expect(page.getByTestId('toast')).toBeVisible()
  await expectChinese(page, 'undo toast', '[data-testid="toast"]')

  await page.getByTestId('run').click()
  await expect(page.getByTestId('confirm-dialog')).toBeVisible()
  await expectChinese(page, 'confirm dialog', '[data-testid="confirm-dialog"]')
  await page.screenshot({ path: shot('confirm') })
  await page.getByTestId('confirm-submit').click()
  await expect(page.getByTestId('stop-reason')).toBeVisible()
  await expectChinese(page, 'after the confirmation')

  await setEditor(page, 'tools.ts', 'export const broken = ')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('code-problem').first()).toBeVisible()
  await expectChinese(page, 'code problem banner', '[data-testid="code-problem"]')
  // The engine's own English is translated too, and kept on hover.
  const banner = page.getByTestId('code-problem').first()
  await expect(banner.locator('[title="SyntaxError: Unexpected token"] [lang="zh-CN"]')).toHaveText('SyntaxError：此处不应出现这个符号')
})

test('in 简体中文: the parse lab, the Evals tab with a lesson’s cases, and Compare', async ({ page }) => {
  await openInChinese(page)
  await page.getByTestId('view-parse').click()
  await page.getByTestId('load-example-bracket').click()
  await expectChinese(page, 'parse lab')
  await page.screenshot({ path: shot('parse-lab') })

  await page.getByTestId('view-loop').click()
  await page.getByTestId('lessons-toggle').click()
  await page.locator('[data-testid="lesson-item"][data-lesson-id="eval-metrics"]').click()
  await page.getByTestId('view-evals').click()
  await expectChinese(page, 'evals, not run')
  await page.getByTestId('eval-run').click()
  await expect(page.getByTestId('eval-summary')).toContainText('3 个通过，1 个失败')
  await expect(page.getByTestId('eval-summary')).toContainText('参数准确率 50.0%')
  await expectChinese(page, 'evals, run')
  await page.screenshot({ path: shot('evals') })

  const log = (city: string) => [
    { role: 'user', content: 'Weather?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city }) } }] },
    { role: 'tool', tool_call_id: 'c1', content: `sunny in ${city}` },
    { role: 'assistant', content: 'Sunny.' },
  ]
  await page.getByTestId('view-compare').click()
  await page.getByTestId('compare-file-a').setInputFiles({ name: 'a.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(log('Paris'))) })
  await page.getByTestId('compare-file-b').setInputFiles({ name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(log('Lyon'))) })
  await expect(page.getByTestId('compare-summary')).toContainText('第 1 轮')
  await expectChinese(page, 'compare')
  await page.screenshot({ path: shot('compare') })
})

test('in 简体中文: a replayed log with anomalies, the conversation list, the anomaly catalogue, a fork and its diff', async ({ page }) => {
  await openInChinese(page)
  await setEditor(page, 'model.ts', "export default function model() {\n  return { role: 'assistant', content: 'I cannot help with reservations.' }\n}\n")
  await page.getByTestId('import-file').setInputFiles(path.join(fixtures, 'tau-bench-gpt-4o-airline.json'))
  await expect(page.getByTestId('conversation-list')).toBeVisible()
  await expect(page.getByTestId('toast')).toContainText('已从')
  await expectChinese(page, 'replay with the conversation list')
  await page.screenshot({ path: shot('replay') })
  await page.getByTestId('filter-has-anomalies').check()
  await page.getByTestId('conversation-item').first().click()
  await page.getByTestId('run').click()
  const rows = await page.getByTestId('timeline-item').count()
  for (let i = 0; i < Math.min(rows, 12); i++) {
    await page.getByTestId('timeline-item').nth(i).click()
    await expectChinese(page, `replay, row ${i}`)
  }
  // The first anomaly: its list in the inspector links to the catalogue.
  await page.getByTestId('timeline-item').first().click()
  await page.getByTestId('next-anomaly').click()
  await expect(page.getByTestId('anomaly-detail').first()).toBeVisible()
  await expectChinese(page, 'the anomaly in the inspector')
  await page.getByTestId('anomaly-detail').first().getByTestId('anomaly-code').click()
  await expect(page.getByTestId('anomaly-catalogue')).toBeVisible()
  await page.getByTestId('anomaly-catalogue').locator('details').first().evaluate((d) => ((d as HTMLDetailsElement).open = true))
  await expectChinese(page, 'anomaly catalogue', '[data-testid="anomaly-catalogue"]')
  await page.screenshot({ path: shot('catalogue') })
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('anomaly-catalogue')).toBeHidden()

  await page.getByTestId('filter-has-anomalies').uncheck()
  await page.getByTestId('conversation-select').selectOption('3')
  await page.getByTestId('step').click()
  await page.getByTestId('step').click()
  await page.getByTestId('fork-here').click()
  await expect(page.getByTestId('diff-view')).toBeVisible()
  await expectChinese(page, 'diff against the log')
  await page.screenshot({ path: shot('diff') })
})

test('in 简体中文: lessons, presenter mode and the share link', async ({ page }) => {
  await openInChinese(page)
  await page.getByTestId('lessons-toggle').click()
  await page.locator('[data-testid="lesson-item"][data-lesson-id="fail-endless-loop"]').click()
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toBeVisible()
  await page.getByTestId('challenge-check').click()
  await expect(page.getByTestId('challenge-result')).toHaveAttribute('data-passed', 'false')
  await page.getByTestId('share-link').click()
  await expect(page.getByTestId('share-url')).toBeVisible()
  await expectChinese(page, 'lesson, challenge and share link')
  await page.getByTestId('presenter-toggle').click()
  await expectChinese(page, 'presenter mode')
  await page.screenshot({ path: shot('presenter') })
})

/** Layout at two common screen sizes in both languages: nothing wider than the screen, toolbar controls on screen. */
test.describe('layout at two sizes in two languages, on one page', () => {
  // One load for the four: each sets its size and language and runs the lesson again from Reset.
  let shared: Awaited<ReturnType<typeof sharedPage>>
  test.beforeAll(async ({ browser }) => {
    shared = await sharedPage(browser)
    await openApp(shared.page)
  })
  test.afterEach(() => shared.check())
  test.afterAll(() => shared.close())

for (const [width, height] of [[1280, 720], [1920, 1080]] as const) {
  for (const language of ['en', 'zh-CN'] as const) {
    test(`layout at ${width}×${height} in ${language}: no horizontal overflow, toolbar controls on screen`, async () => {
      const { page } = shared
      await page.setViewportSize({ width, height })
      await page.getByTestId('lang-select').selectOption(language)
      await expect(page.locator('html')).toHaveAttribute('lang', language)
      if (!(await page.getByTestId('lessons').isVisible())) await page.getByTestId('lessons-toggle').click()
      await page.locator('[data-testid="lesson-item"][data-lesson-id="parallel-calls"]').click()
      await expect(page.locator('[data-testid="lesson-item"][data-lesson-id="parallel-calls"]')).toHaveAttribute('aria-current', 'true')
      if (await page.getByTestId('reset').isEnabled()) await page.getByTestId('reset').click()
      await expect(page.getByTestId('timeline-item')).toHaveCount(0)
      await page.getByTestId('run').click()
      await expect(page.getByTestId('stop-reason')).toBeVisible()
      await page.getByTestId('timeline-item').nth(3).click()
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
      const onScreen = async (ids: string[]) => {
        for (const id of ids) {
          const box = await page.getByTestId(id).boundingBox()
          expect(box, id).not.toBeNull()
          expect(box!.x + box!.width, id).toBeLessThanOrEqual(width)
          expect(box!.y + box!.height, id).toBeLessThanOrEqual(height)
        }
      }
      await onScreen(['example-select', 'protocol-select', 'run', 'step', 'step-back', 'reset', 'lang-select', 'narration'])
      // The teaching controls are in the toolbar's row, no menu to open first.
      await onScreen(['lessons-toggle', 'presenter-toggle', 'font-size', 'share-link'])
      for (const id of ['lessons-toggle', 'presenter-toggle', 'font-size', 'share-link', 'lang-select']) await expect(page.getByTestId(id), id).toBeVisible()
      await page.screenshot({ path: shot(`layout-${width}x${height}-${language}`) })
    })
  }
}
})

/** Names of log dialects and their vendors, as the import error lists what it reads. */
const DIALECT_NAMES = new Set(['chat', 'completions', 'responses', 'messages', 'opentelemetry', 'genai', 'openinference', 'span', 'langfuse', 'trace', 'vercel', 'sdk', 'jsonl'])

test('in 简体中文: anomaly details, a stop detail, a failed import and the compare cells are Chinese, the log’s own values as they are', async ({ page }) => {
  await openInChinese(page)
  // A replayed log with anomalies: the details in the inspector and on the conversation cards.
  await page.getByTestId('import-file').setInputFiles(path.join(fixtures, 'tau-bench-gpt-4o-airline.json'))
  await expect(page.getByTestId('conversation-list')).toBeVisible()
  await page.getByTestId('filter-has-anomalies').check()
  await page.getByTestId('conversation-item').first().click()
  await page.getByTestId('timeline-item').first().click()
  await page.getByTestId('next-anomaly').click()
  const detail = page.getByTestId('anomaly-detail').first()
  await expect(detail).toBeVisible()
  await expect(detail.locator('[lang="en"]')).toHaveCount(0)
  await expect(detail.locator('p').first()).toHaveText(/[\u4e00-\u9fff]/)
  await expectChinese(page, 'anomaly detail in the inspector', '[data-testid="anomaly-detail"]')
  await page.screenshot({ path: shot('anomaly-detail') })
  await page.locator('[data-testid="timeline-view"] input[value="conversation"]').check({ force: true })
  const card = page.getByTestId('card-anomaly').first()
  await expect(card).toBeVisible()
  await expect(card.locator('[lang="en"]')).toHaveCount(0)
  await expectChinese(page, 'anomaly on a conversation card', '[data-testid="card-anomaly"]')
  await page.screenshot({ path: shot('anomaly-cards') })
  await page.locator('[data-testid="timeline-view"] input[value="phases"]').check({ force: true })

  // A log that is not one: the toast says why in Chinese (the file's keys stay as they are).
  await page.getByTestId('import-file').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ title: 'x', items: [] })) })
  const toast = page.getByTestId('toast').filter({ hasText: 'notes.json' })
  await expect(toast).toContainText('无法识别的日志')
  await expect(toast).toContainText('"title", "items"')
  expect.soft((await englishIn(page, '[data-testid="toast"]')).filter((w) => !DIALECT_NAMES.has(w.toLowerCase())), 'failed import toast').toEqual([])
  await page.screenshot({ path: shot('import-failed') })

  // A run stopped by the step cap: the stop detail in the inspector, the status bar and the conversation view.
  await page.getByTestId('example-select').selectOption('step-limit')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('max_steps')
  await page.getByTestId('timeline-item').last().click()
  const stop = page.getByTestId('stop-detail')
  await expect(stop).toContainText('轮后停止')
  await expect(stop).not.toHaveAttribute('lang', 'en')
  expect(await page.getByTestId('stop-reason').getAttribute('title')).toMatch(/轮后停止/)
  await expectChinese(page, 'stop detail in the inspector', '[data-testid="stop-detail"]')
  await page.screenshot({ path: shot('stop-detail') })
  await page.locator('[data-testid="timeline-view"] input[value="conversation"]').check({ force: true })
  await expect(page.getByTestId('conversation-stop')).toContainText('轮后停止')
  await expectChinese(page, 'stop in the conversation view', '[data-testid="conversation-stop"]')
  await page.locator('[data-testid="timeline-view"] input[value="phases"]').check({ force: true })

  // Compare: a turn with a call against one without: Toolstep's cells translated, the sessions' text as it is.
  const called = [
    { role: 'user', content: 'Weather?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'HTTP 503', isError: true },
    { role: 'assistant', content: 'Sorry.' },
  ]
  const answered = [{ role: 'user', content: 'Weather?' }, { role: 'assistant', content: 'Sunny.' }]
  await page.getByTestId('view-compare').click()
  await page.getByTestId('compare-file-a').setInputFiles({ name: 'a.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(called)) })
  await page.getByTestId('compare-file-b').setInputFiles({ name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(answered)) })
  await expect(page.getByTestId('compare-summary')).toBeVisible()
  const rows = page.getByTestId('compare-row')
  // B's only turn, and A's answering turn.
  await expect(rows.filter({ hasText: '（无调用）' })).toHaveCount(2)
  await expect(rows.filter({ hasText: '(no call)' })).toHaveCount(0)
  // The failed import's toast may still be up: its dialect names are names.
  expect.soft((await englishIn(page)).filter((w) => !DIALECT_NAMES.has(w.toLowerCase())), 'compare with cells').toEqual([])
  // A side that is not a log: its error in Chinese beside the file's name.
  await page.getByTestId('compare-file-b').setInputFiles({ name: 'empty.json', mimeType: 'application/json', buffer: Buffer.from('   ') })
  await expect(page.getByTestId('compare-error-b')).toHaveText('empty.json: 文件是空的。')
  await page.screenshot({ path: shot('compare-cells') })
})
