/**
 * Export → TypeScript loop / Vitest test from the playground, run as a user would: the
 * downloaded loop with `npx tsx` against the same local test server (127.0.0.1), reaching the
 * answer the playground showed. And the endpoint settings that survive a reload.
 */
import type { Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { CAPTURE_INPUT, CAPTURE_TOOLS } from '../src/test/capture-workspace'
import { captureReply, startChatServer, textReply, type ChatServer, type Reply } from '../src/test/chat-server'
import { exportFolder, runTsx } from '../src/test/run-export'
import { expect, openApp, setEditor, test } from './fixtures'

const KEY = 'sk-e2e-export-never-written-4321'

let server: ChatServer
let folder: ReturnType<typeof exportFolder>
test.beforeEach(async () => {
  server = await startChatServer()
  folder = exportFolder()
})
test.afterEach(async () => {
  folder.remove()
  await server.close()
})

async function runAgainstServer(page: Page, protocol: string, stream: boolean, replies: Reply[]): Promise<string> {
  await setEditor(page, 'tools.ts', CAPTURE_TOOLS)
  await page.getByTestId('user-input').fill(CAPTURE_INPUT)
  await page.getByTestId('protocol-select').selectOption(protocol)
  await page.getByTestId('model-source').selectOption('endpoint')
  await page.getByTestId('endpoint-url').fill(server.baseUrl)
  await page.getByTestId('endpoint-model').fill('gpt-4o-mini')
  await page.getByTestId('endpoint-key').fill(KEY)
  await page.getByTestId('endpoint-stream').setChecked(stream)
  server.enqueue(...replies)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  return (await page.getByTestId('final-answer').innerText()).trim()
}

async function exported(page: Page, testId: 'export-code' | 'export-test'): Promise<{ name: string; text: string }> {
  await page.getByTestId('export-menu').click()
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()])
  const path = folder.write(download.suggestedFilename(), '')
  await download.saveAs(path)
  return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') }
}

for (const [protocol, stream, replies] of [
  ['openai', true, [captureReply('openai-chat-stream-parallel-tools.response.sse'), captureReply('openai-chat-parallel-tools.2.response.json')]],
  ['xml-tag', false, [textReply('<tool_call>{"name": "get_current_weather", "arguments": {"location": "Seattle, WA"}}</tool_call>'), textReply('It is 50 degrees and raining in Seattle.')]],
] as const) {
  test(`${protocol}: the exported TypeScript loop reaches the playground's final answer from the command line`, async ({ page }) => {
    await openApp(page)
    const answer = await runAgainstServer(page, protocol, stream, [...replies])
    const loop = await exported(page, 'export-code')
    expect(loop.name).toBe('toolstep-loop.ts')
    expect(loop.text).not.toContain(KEY)
    server.enqueue(...replies)
    const ran = await runTsx(`${folder.dir}/${loop.name}`, ['--json'], { cwd: folder.dir })
    expect(ran.code, ran.stderr).toBe(0)
    expect((JSON.parse(ran.stdout) as { finalAnswer: string }).finalAnswer).toBe(answer)
    await expect(page.getByText('The API key is not in it')).toBeVisible()

    const recorded = await exported(page, 'export-test')
    expect(recorded.name).toBe('toolstep-loop.test.ts')
    expect(recorded.text).not.toContain(KEY)
    expect(recorded.text).toContain(JSON.stringify(answer))
  })
}

test('the endpoint URL and model name are remembered across a reload; the key is not', async ({ page }) => {
  await openApp(page)
  await runAgainstServer(page, 'openai', false, [captureReply('openai-chat-parallel-tools.1.response.json'), captureReply('openai-chat-parallel-tools.2.response.json')])
  await page.reload()
  await page.getByTestId('model-source').selectOption('endpoint')
  await expect(page.getByTestId('endpoint-url')).toHaveValue(server.baseUrl)
  await expect(page.getByTestId('endpoint-model')).toHaveValue('gpt-4o-mini')
  await expect(page.getByTestId('endpoint-stream')).not.toBeChecked()
  await expect(page.getByTestId('endpoint-key')).toHaveValue('')
  const stored = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }))
  expect(stored).not.toContain(KEY)
})
