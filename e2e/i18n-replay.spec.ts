/**
 * The import and replay path in 简体中文 at 1280×720, as a user walks it: recorded request/response
 * files imported together, a τ-bench log and its tools file, a conversation opened and stepped
 * through (repairs, validation, anomalies), the tools file dropped again (the re-check), a fork
 * and its diff, and Compare. Nothing English is left but code, raw model output, tool names and
 * JSON — `[lang="en"]` is not skipped here: English marked as such must be content too.
 * Screenshots: test-results/i18n-replay-*.png.
 */
import path from 'node:path'
import type { Page } from '@playwright/test'
import { expect, openApp, test } from './fixtures'
import { englishIn } from './i18n-words'

const fixtures = path.join(import.meta.dirname, '..', 'src', 'core', '__fixtures__')
const captures = path.join(import.meta.dirname, '..', 'src', 'core', 'trace', '__fixtures__', 'captures')
const shot = (name: string) => `test-results/i18n-replay-${name}.png`

/**
 * The JavaScript engine's own JSON.parse message inside an anomaly's detail ("Expected property
 * name or '}' in JSON at position 1 (line 1 column 2)"): the CLI prints it as it is, and so does the page.
 */
const ENGINE_WORDS = new Set(['Expected', 'property', 'position', 'line', 'column'])

/** English UI words on the page (or in `root`), English marked `lang="en"` included. */
async function expectChinese(page: Page, where: string, root?: string) {
  expect.soft((await englishIn(page, root, { keepEnglish: false })).filter((word) => !ENGINE_WORDS.has(word)), where).toEqual([])
}

/** Clicks every timeline row (at most `max`) and checks the page at each. */
async function walkRows(page: Page, where: string, max = 40) {
  const rows = await page.getByTestId('timeline-item').count()
  for (let i = 0; i < Math.min(rows, max); i++) {
    await page.getByTestId('timeline-item').nth(i).click()
    await expectChinese(page, `${where}, row ${i}`)
  }
}

test.use({ viewport: { width: 1280, height: 720 } })

test('in 简体中文: imported captures, a τ-bench log with its tools file, repairs, the re-check, a fork’s diff and Compare hold no English UI text', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('lang-select').selectOption('zh-CN')
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN')

  // Four recorded bodies of one session: "4 files" and "· 2 turns" are Toolstep's words.
  const parallel = ['1.request.json', '1.response.json', '2.request.json', '2.response.json'].map((end) => path.join(captures, `openai-chat-parallel-tools.${end}`))
  await page.getByTestId('import-file').setInputFiles(parallel)
  await expect(page.getByTestId('toast').first()).toContainText('已从 4 个文件 导入 1 个对话。')
  await expect(page.getByTestId('conversation-item')).toContainText('openai-chat-parallel-tools · 2 轮')
  await expect(page.getByTestId('conversation-select').locator('option').first()).toContainText('openai-chat-parallel-tools · 2 轮')
  await expect(page.getByText('正在回放 4 个文件')).toBeVisible()
  await expectChinese(page, 'captures imported')
  await page.screenshot({ path: shot('captures') })
  await walkRows(page, 'captures')

  // τ-bench: "task 3 · trial 1 · reward 0" worded by Toolstep, the values as the log has them.
  await page.getByTestId('import-file').setInputFiles(path.join(fixtures, 'tau-bench-gpt-4o-airline.json'))
  await expect(page.getByTestId('conversation-item').first()).toContainText(/任务 \d+ · 试验 \d+ · 奖励 \d/)
  await expect(page.getByTestId('conversation-item').filter({ hasText: /task|trial|reward/ })).toHaveCount(0)
  await page.getByTestId('import-file').setInputFiles(path.join(fixtures, 'tau-bench-airline-tools.json'))
  await expect(page.getByTestId('toast').filter({ hasText: '14 个工具' })).toBeVisible()
  await page.getByTestId('filter-has-anomalies').check()
  await page.getByTestId('conversation-item').first().click()
  await expectChinese(page, 'τ-bench with its tools file')
  await page.screenshot({ path: shot('tau-bench') })
  await walkRows(page, 'τ-bench')
  await page.locator('[data-testid="timeline-view"] input[value="conversation"]').check({ force: true })
  await expect(page.getByTestId('message-card').first()).toBeVisible()
  await expectChinese(page, 'τ-bench, conversation view')
  await page.screenshot({ path: shot('tau-bench-conversation') })
  await page.locator('[data-testid="timeline-view"] input[value="phases"]').check({ force: true })
  await page.getByTestId('filter-has-anomalies').uncheck()

  // Dropping the tools file re-checks the log against its own tool definitions.
  await page.getByTestId('clear-tools').click()
  await expect(page.getByTestId('clear-tools')).toBeHidden()
  await expectChinese(page, 'after the re-check')

  // A log whose calls need repairs and break their schema, with a model-less anomaly or two.
  const log = [
    { role: 'user', content: 'Weather in Paris and Lyon?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: "{'city': 'Paris',}" } },
        { id: 'c2', type: 'function', function: { name: 'get_weather', arguments: '{"city": 42}' } },
        { id: 'c3', type: 'function', function: { name: 'get_weather', arguments: '"{\\"city\\": \\"Lyon\\"}"' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
    { role: 'tool', tool_call_id: 'c2', content: 'HTTP 400' },
    { role: 'assistant', content: 'Sunny in Paris.' },
  ]
  const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }]
  await page.getByTestId('import-file').setInputFiles({ name: 'repairs.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(log)) })
  await expect(page.getByTestId('conversation-item')).toHaveCount(1)
  // Named by its file, not "对话 0".
  await expect(page.getByTestId('conversation-item')).toContainText('repairs')
  await expect(page.getByTestId('conversation-item')).not.toContainText('对话 0')
  await page.getByTestId('import-file').setInputFiles({ name: 'tools.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(tools)) })
  await expect(page.getByTestId('toast').filter({ hasText: 'tools.json' }).first()).toBeVisible()
  await walkRows(page, 'repairs')
  await page.locator('[data-testid="timeline-item"][data-phase="parse"]').first().click()
  await expect(page.locator('[data-testid="inspector"] [data-testid="repair"]').first()).toBeVisible()
  await page.screenshot({ path: shot('repairs') })
  await page.locator('[data-testid="timeline-item"][data-phase="validate"]').first().click()
  await expect(page.getByTestId('verdict-problem').first()).toContainText('实际收到 数字 42')
  await page.screenshot({ path: shot('validation') })
  await page.locator('[data-testid="timeline-view"] input[value="conversation"]').check({ force: true })
  await expect(page.getByTestId('message-card').first()).toBeVisible()
  await expectChinese(page, 'repairs, conversation view')
  await page.screenshot({ path: shot('repairs-conversation') })
  await page.locator('[data-testid="timeline-view"] input[value="phases"]').check({ force: true })

  // A fork from the first decide and its diff against the log.
  await page.locator('[data-testid="timeline-item"][data-phase="decide"]').first().click()
  await page.getByTestId('fork-here').click()
  await expect(page.getByTestId('diff-view')).toBeVisible()
  await expect(page.getByTestId('diff-view')).toContainText('repairs')
  await expectChinese(page, 'diff against the log')
  await page.screenshot({ path: shot('diff') })

  // Compare: the captures against the repairs log.
  await page.getByTestId('view-compare').click()
  await page.getByTestId('compare-file-a').setInputFiles({ name: 'a.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(log)) })
  await page.getByTestId('compare-file-b').setInputFiles({ name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(log.slice(0, 1).concat([{ role: 'assistant', content: 'I do not know.' }]))) })
  await expect(page.getByTestId('compare-summary')).toBeVisible()
  await expectChinese(page, 'compare')
  await page.screenshot({ path: shot('compare') })
})
