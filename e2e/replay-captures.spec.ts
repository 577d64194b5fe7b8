import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, openApp, test, timelineRows } from './fixtures'

const captures = path.join(import.meta.dirname, '..', 'src', 'core', 'trace', '__fixtures__', 'captures')
const capture = (name: string) => path.join(captures, name)

test('several recorded request/response files import as one conversation, with its real anomaly', async ({ page }) => {
  await openApp(page)
  await page
    .getByTestId('import-file')
    .setInputFiles(['openai-chat-parallel-tools.1.request.json', 'openai-chat-parallel-tools.1.response.json', 'openai-chat-parallel-tools.2.request.json', 'openai-chat-parallel-tools.2.response.json'].map(capture))
  await expect(page.getByTestId('toast')).toContainText('Imported 1 conversation from 4 files')
  const item = page.getByTestId('conversation-item')
  await expect(item).toHaveCount(1)
  await expect(item).toContainText('openai-chat-parallel-tools · 2 turns')
  await expect(item).toContainText('6 msg')
  await expect(item.getByTestId('conversation-anomaly')).toHaveText(['tools_changed'])
  const current = page.locator('[data-testid="timeline-item"][aria-current="step"]')
  await page.getByTestId('step').click()
  await page.getByTestId('step').click()
  await expect(current).toHaveAttribute('data-phase', 'parse')
  await expect(page.locator('[data-testid="parsed-call"][data-tool-name="get_current_weather"]')).toHaveCount(2)
  // The turn's response as recorded: the cassette's body, field for field.
  await page.getByTestId('step-back').click()
  await expect(page.getByTestId('recorded-response')).toHaveAttribute('data-kind', 'json')
  await expect(page.getByTestId('recorded-response')).toContainText('"refusal": null')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  expect((await timelineRows(page)).filter((row) => row.startsWith('execute'))).toHaveLength(2)
  await expect(page.getByTestId('anomaly').filter({ hasText: 'tools_changed' }).first()).toBeAttached()
})

test('a streamed capture shows its chunks and plays them as a stream; a failed stream stops with the provider’s error', async ({ page }) => {
  await openApp(page)
  // Dropped together on the page, as files from a folder would be.
  const files = ['openai-chat-stream-parallel-tools.request.json', 'openai-chat-stream-parallel-tools.response.sse'].map((name) => ({ name, text: readFileSync(capture(name), 'utf8') }))
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer()
    for (const { name, text } of list) transfer.items.add(new File([text], name, { type: name.endsWith('.sse') ? 'text/event-stream' : 'application/json' }))
    return transfer
  }, files)
  await page.locator('main').dispatchEvent('drop', { dataTransfer })
  await expect(page.getByTestId('toast')).toContainText('Imported 1 conversation from 2 files')
  const item = page.getByTestId('conversation-item')
  await expect(item).toContainText('3 msg')
  // Named by its files, as the CLI names it (not "conversation 0").
  await expect(item).toContainText('openai-chat-stream-parallel-tools')
  await expect(item.getByTestId('conversation-anomaly')).toHaveText(['unanswered_tool_call'])
  await page.getByTestId('step').click()
  const recorded = page.getByTestId('recorded-response')
  await expect(recorded).toHaveAttribute('data-kind', 'sse')
  await expect(recorded).toHaveAttribute('data-chunks', '19')
  await page.getByTestId('recorded-play').click()
  await expect(page.getByTestId('recorded-progress')).toHaveText('chunk 19 / 19')
  await expect(page.getByTestId('recorded-partial-call')).toHaveText(['→ get_current_weather({"location": "Seattle, WA"})', '→ get_current_weather({"location": "San Francisco, CA"})'])

  await page.getByTestId('import-file').setInputFiles(capture('openai-responses-stream-error-quota.response.jsonl'))
  await expect(page.getByTestId('toast')).toContainText('Imported 1 conversation')
  await expect(page.getByTestId('conversation-item').getByTestId('conversation-anomaly')).toHaveText(['provider_error'])
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('error')
  await expect(page.getByTestId('stop-reason')).toHaveAttribute('title', /^provider error: insufficient_quota: You exceeded your current quota/)
  await expect(page.getByTestId('anomaly').filter({ hasText: 'provider_error' }).first()).toBeAttached()
})
