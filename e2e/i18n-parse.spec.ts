/**
 * What core says about what it read, in 简体中文: a turn whose output needed repairs, one whose
 * call could not be parsed, a call that failed validation, and a refused workspace file show
 * Chinese sentences, with only code, raw model output, offsets and tool names left as they are.
 * Screenshots: test-results/i18n-parse-*.png.
 */
import type { Locator, Page } from '@playwright/test'
import { expect, openApp, setEditor, test } from './fixtures'


const shot = (name: string) => `test-results/i18n-parse-${name}.png`

// Turn 1 cannot be parsed; turn 2 parses only after repairs and fails validation; turn 3 answers.
const MODEL = `import type { ModelContext, ModelResult } from 'toolstep'

export default function model(ctx: ModelContext): ModelResult {
  const turns = ctx.messages.filter((message) => message.role === 'assistant').length
  if (turns === 0) return '{"name": "get_weather", "arguments": {"city": "Paris", "unit": }}'
  if (turns === 1) return "{'name': 'get_weather', 'arguments': {'city': 42, 'unit': 'kelvin',}}"
  return 'I could not get the weather.'
}
`

/** ASCII words of 3+ letters left once quoted values, code-like tokens and names are removed. */
async function englishWords(locator: Locator): Promise<string[]> {
  const texts = await locator.allInnerTexts()
  const words = texts.flatMap((text) =>
    text
      .replace(/"[^"]*"|'[^']*'|`[^`]*`|\{[^}]*\}|\[[^\]]*\]|<[^>]*>/g, ' ')
      .split(/[^A-Za-z_.\d]+/)
      .filter((w) => /^[A-Za-z]{3,}$/.test(w)),
  )
  const allowed = new Set(['json', 'string', 'object', 'array', 'number', 'get_weather', 'toolstep', 'events', 'tools'])
  return [...new Set(words.filter((w) => !allowed.has(w.toLowerCase())))]
}

async function expectTranslated(page: Page, selector: string, where: string) {
  const items = page.locator(selector)
  await expect(items.first(), where).toBeVisible()
  // Nothing is left marked as untranslated English, every item holds Chinese, no English prose remains.
  expect(await page.locator(`${selector} [lang="en"], ${selector}[lang="en"]`).count(), `${where}: lang="en"`).toBe(0)
  for (const text of await items.allInnerTexts()) expect(text, where).toMatch(/[\u4e00-\u9fff]/)
  expect(await englishWords(items), where).toEqual([])
}

test('in 简体中文: repairs, a parse error and failed validation are shown in Chinese in the inspector and the conversation', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('lang-select').selectOption('zh-CN')
  await page.getByTestId('protocol-select').selectOption('json')
  await setEditor(page, 'model.ts', MODEL)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toBeVisible()

  // Turn 1: the parse error.
  await page.locator('[data-testid="timeline-item"][data-phase="parse"]').nth(0).click()
  await expectTranslated(page, '[data-testid="inspector"] [data-testid="parse-error"]', 'parse error')
  await expect(page.locator('[data-testid="inspector"] [data-testid="parse-error"]').first()).toContainText('的调用不是有效的 JSON')
  await page.screenshot({ path: shot('error') })

  // Turn 2: repairs, then the verdict with the received type and value.
  await page.locator('[data-testid="timeline-item"][data-phase="parse"]').nth(1).click()
  await expectTranslated(page, '[data-testid="inspector"] [data-testid="repair"]', 'repairs')
  await expect(page.locator('[data-testid="inspector"] [data-testid="repair"]')).toContainText(['已将单引号字符串按 JSON 字符串读取。'])
  await page.locator('[data-testid="timeline-item"][data-phase="validate"]').first().click()
  await expectTranslated(page, '[data-testid="inspector"] [data-testid="verdict-problem"]', 'verdict')
  await expect(page.locator('[data-testid="verdict-problem"]')).toContainText(['"city" 必须是字符串，实际收到 数字 42', '"unit" 必须是以下之一："celsius", "fahrenheit"'])
  await page.screenshot({ path: shot('inspector') })

  // The conversation view shows the same, translated.
  await page.locator('[data-testid="timeline-view"] input[value="conversation"]').check({ force: true })
  await expect(page.getByTestId('message-card').first()).toBeVisible()
  await expectTranslated(page, '[data-testid="card-verdict"][data-ok="false"]', 'conversation verdict')
  await expectTranslated(page, '[data-testid="repair"]', 'conversation repairs')
  await page.screenshot({ path: shot('conversation') })
})

test('in 简体中文: a refused workspace file says why in Chinese, with zod’s own Chinese for the field', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('lang-select').selectOption('zh-CN')
  const bad = { format: 'toolstep.workspace', version: 1, tools: 42, model: '', input: '', settings: { protocol: 'json', maxSteps: 4, systemPrompt: '' } }
  await page.getByTestId('import-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) })
  const toast = page.getByTestId('toast')
  await expect(toast).toContainText('不是 Toolstep 工作区：tools：无效输入：期望 字符串，实际接收 数字')
  expect(await englishWords(toast.locator('span').first())).toEqual([])
  await page.screenshot({ path: shot('refused-file') })
})

test('in 简体中文: auto-detection says why in Chinese, and a log import names what it recognised, the field problem and schema violations in Chinese', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('lang-select').selectOption('zh-CN')

  // The Parse lab with auto: the detection reason, marker and offset as they are.
  await page.getByTestId('view-parse').click()
  await page.getByTestId('parse-protocol-select').selectOption('auto')
  await page.getByTestId('parse-input').fill('Let me check. [TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]')
  const detection = page.getByTestId('parse-detection')
  await expect(detection).toContainText('在偏移 14 处发现 [TOOL_CALLS]。')
  await expect(detection.locator('[lang="en"]')).toHaveCount(0)
  expect(await englishWords(detection)).toEqual([])
  await page.getByTestId('parse-input').fill('Nothing to call here.')
  await expect(detection).toContainText('没有发现工具调用语法；输出是文本。')
  await page.screenshot({ path: shot('detection') })
  await page.getByTestId('view-loop').click()

  // A log whose importer is recognised but a field is wrong: both parts of the toast in Chinese.
  const broken = [{ traj: [{ role: 'user', content: 'hi' }, { role: 'robot', content: 'x' }] }]
  await page.getByTestId('import-file').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) })
  const toast = page.getByTestId('toast').filter({ hasText: 'broken.json' })
  await expect(toast).toContainText('识别为 1 个对话的列表（带 "traj" 的记录），但 [0].traj[1].role：应为')
  await expect(toast).toContainText('之一，实际为 role "robot"。')
  // The field's path and the log's key ("role") stay as they are.
  expect((await englishWords(toast.locator('span').first())).filter((word) => word !== 'role')).toEqual([])
  await page.screenshot({ path: shot('import-field') })

  // A request/response pair whose call breaks the tool's JSON Schema: the schema_violation detail.
  const pair = {
    request: {
      model: 'gpt-4o',
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } } }],
      messages: [{ role: 'user', content: 'Weather?' }],
    },
    response: { choices: [{ finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"town": "Paris"}' } }] } }] },
  }
  await page.getByTestId('import-file').setInputFiles({ name: 'pair.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(pair)) })
  await page.getByTestId('timeline-item').first().click()
  // The turn's other anomaly (the call is never answered) may come first.
  const anomaly = page.locator('[data-testid="anomaly-detail"][data-code="schema_violation"]').first()
  await expect(async () => {
    await page.getByTestId('next-anomaly').click()
    await expect(anomaly).toBeVisible({ timeout: 1000 })
  }).toPass()
  await expect(anomaly).toContainText('get_weather 的参数不符合其 Schema：缺少必填的 "city"')
  await expect(anomaly.locator('[lang="en"]')).toHaveCount(0)
  // "Schema" is JSON Schema's name.
  expect((await englishWords(anomaly.locator('p').first())).filter((word) => word !== 'Schema')).toEqual([])
  await page.screenshot({ path: shot('schema-violation') })
})
