/**
 * An OpenAI-compatible endpoint as the model, against a local test server on 127.0.0.1 that
 * answers from recorded provider responses (src/test/chat-server.ts).
 */
import type { Page } from '@playwright/test'
import { CAPTURE_ANSWER, CAPTURE_INPUT, CAPTURE_TOOLS } from '../src/test/capture-workspace'
import { captureReply, errorReply, startChatServer, textReply, type ChatServer } from '../src/test/chat-server'
import { expect, openApp, setEditor, test, timelineRows } from './fixtures'

const KEY = 'sk-e2e-never-saved-9876'

let server: ChatServer
test.beforeEach(async () => {
  server = await startChatServer()
})
test.afterEach(async () => {
  await server.close()
})

async function useEndpoint(page: Page, protocol: string, options: { stream: boolean; url?: string }) {
  await setEditor(page, 'tools.ts', CAPTURE_TOOLS)
  await page.getByTestId('user-input').fill(CAPTURE_INPUT)
  await page.getByTestId('protocol-select').selectOption(protocol)
  await page.getByTestId('model-source').selectOption('endpoint')
  await page.getByTestId('endpoint-url').fill(options.url ?? server.baseUrl)
  await page.getByTestId('endpoint-model').fill('gpt-4o-mini')
  await page.getByTestId('endpoint-key').fill(KEY)
  await page.getByTestId('endpoint-stream').setChecked(options.stream)
}

test('openai format, streamed: parallel calls, TTFT on the timeline, Play as stream, the key saved nowhere', async ({ page }) => {
  await openApp(page)
  await useEndpoint(page, 'openai', { stream: true })
  server.enqueue(captureReply('openai-chat-stream-parallel-tools.response.sse'), captureReply('openai-chat-parallel-tools.2.response.json'))
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  await expect(page.getByTestId('final-answer')).toContainText(CAPTURE_ANSWER)
  expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`)
  const rows = await timelineRows(page)
  expect(rows.find((r) => r.startsWith('decide:'))).toMatch(/TTFT (?:\d+ ms|\d+\.\d s) · total (?:\d+ ms|\d+\.\d s) · 19 chunks/)

  // The parse phase of turn 1: its calls are shown beside the recorded stream.
  await page.getByTestId('timeline-item').filter({ hasText: '2 calls' }).first().click()
  await expect(page.locator('[data-testid="parsed-call"][data-tool-name="get_current_weather"]')).toHaveCount(2)
  await page.getByTestId('play-stream').click()
  await expect(page.getByTestId('stream-playback')).toHaveAttribute('data-done', 'true')
  await expect(page.getByTestId('stream-playback')).toContainText('get_current_weather({"location": "San Francisco, CA"})')

  const stored = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }))
  expect(stored).not.toContain(KEY)
})

test('xml-tag format, not streamed: the calls are parsed out of the content', async ({ page }) => {
  await openApp(page)
  await useEndpoint(page, 'xml-tag', { stream: false })
  server.enqueue(
    textReply('<tool_call>{"name": "get_current_weather", "arguments": {"location": "Seattle, WA"}}</tool_call>'),
    textReply('It is 50 degrees and raining in Seattle.'),
  )
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  await expect(page.getByTestId('final-answer')).toContainText('50 degrees and raining')
  const first = server.requests[0]!.body as { tools?: unknown; messages: { content: string }[] }
  expect(first.tools).toBeUndefined()
  expect(first.messages[0]!.content).toContain('get_current_weather')
})

test('failures are shown on the decide phase with the provider message', async ({ page }) => {
  await openApp(page)
  await useEndpoint(page, 'openai', { stream: false })
  server.enqueue(errorReply(401, 'Incorrect API key provided.'))
  await page.getByTestId('run').click()
  await expect(page.getByTestId('model-error')).toContainText('Incorrect API key provided.')

  server.enqueue(errorReply(429, 'Rate limit reached.', { 'retry-after': '20' }))
  await page.getByTestId('run').click()
  await expect(page.getByTestId('model-error')).toContainText('Retry after 20 s')

  // A server that does not allow the page's origin: the browser reports only a failed fetch.
  const closed = await startChatServer({ cors: false })
  await page.getByTestId('endpoint-url').fill(closed.baseUrl)
  closed.enqueue(captureReply('openai-chat-parallel-tools.1.response.json'))
  await page.getByTestId('run').click()
  await expect(page.getByTestId('model-error')).toContainText('OLLAMA_ORIGINS')
  await closed.close()
})

test('Stop cancels a call in flight with stop reason aborted', async ({ page }) => {
  await openApp(page)
  await useEndpoint(page, 'openai', { stream: true })
  server.enqueue({ kind: 'hang', sendHeaders: true })
  await page.getByTestId('run').click()
  await page.getByTestId('run-stop').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('aborted')
})

test('Save as mock model: stop the server, run again, same timeline', async ({ page }) => {
  await openApp(page)
  await useEndpoint(page, 'openai', { stream: true })
  server.enqueue(captureReply('openai-chat-stream-parallel-tools.response.sse'), captureReply('openai-chat-parallel-tools.2.response.json'))
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  // Phases and their outcomes, without timings (a replayed mock answers at once, with no chunks).
  const titles = async () => (await timelineRows(page)).map((row) => row.split(' — ')[0]!.replace(/ · (TTFT (?:\d+ ms|\d+\.\d s) · total (?:\d+ ms|\d+\.\d s) · \d+ chunks|(?:\d+ ms|\d+\.\d s))/g, ''))
  const live = await titles()
  await page.getByTestId('save-as-mock').click()
  await expect(page.getByTestId('model-source')).toHaveValue('mock')
  await server.close()
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  await expect(page.getByTestId('final-answer')).toContainText(CAPTURE_ANSWER)
  expect(await titles()).toEqual(live)
  server = await startChatServer()
})
