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

/** A streamed Chat Completions answer with native tool calls, chunked as OpenAI streams them. */
function toolCallStream(calls: { id: string; name: string; arguments: string }[]): Reply {
  const base = { id: 'chatcmpl-e2e', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'test-model' }
  const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  const parts = calls.flatMap((call, index) => [
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }, null),
    chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(0, 8) } }] }, null),
    chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(8) } }] }, null),
  ])
  return { kind: 'sse', body: chunk({ role: 'assistant', content: null }, null) + parts.join('') + chunk({}, 'tool_calls') + 'data: [DONE]\n\n' }
}

const ANSWER = 'Paris is mild today, and (12 + 30) * 2 = 84.'
const WEATHER_REPLIES: Record<string, Reply[]> = {
  openai: [
    toolCallStream([
      { id: 'call_w', name: 'get_weather', arguments: '{"city": "Paris"}' },
      { id: 'call_c', name: 'calculate', arguments: '{"expression": "(12 + 30) * 2"}' },
    ]),
    textReply(ANSWER, { stream: true }),
  ],
  'xml-tag': [
    textReply('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\n<tool_call>{"name": "calculate", "arguments": {"expression": "(12 + 30) * 2"}}</tool_call>', { stream: true }),
    textReply(ANSWER, { stream: true }),
  ],
}

for (const protocol of ['openai', 'xml-tag']) {
  test(`the default example against a local server (${protocol}): streamed raw output and parsed calls, saved as a mock it replays with the server stopped, and the exported loop gives the same answer`, async ({ page }) => {
    await openApp(page)
    await expect(page.getByTestId('example-select')).toHaveValue('weather')
    await page.getByTestId('protocol-select').selectOption(protocol)
    await page.getByTestId('model-source').selectOption('endpoint')
    await page.getByTestId('endpoint-url').fill(server.baseUrl)
    await page.getByTestId('endpoint-model').fill('local-model')
    await page.getByTestId('endpoint-stream').setChecked(true)
    server.enqueue(...WEATHER_REPLIES[protocol]!)
    await page.getByTestId('run').click()
    await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
    await expect(page.getByTestId('final-answer')).toHaveText(ANSWER)

    // The streamed decide and the calls parsed out of it.
    const decide = page.getByTestId('timeline-item').filter({ hasText: /TTFT (?:\d+ ms|\d+\.\d s)/ }).first()
    await expect(decide).toBeVisible()
    await page.getByTestId('timeline-item').filter({ hasText: '2 calls' }).first().click()
    await expect(page.getByTestId('raw-output').first()).toContainText('get_weather')
    await expect(page.locator('[data-testid="parsed-call"][data-tool-name="get_weather"]')).toHaveCount(1)
    await expect(page.locator('[data-testid="parsed-call"][data-tool-name="calculate"]')).toHaveCount(1)
    const titles = async () => (await page.getByTestId('timeline-item').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).innerText.split(' — ')[0]!.replace(/\s+/g, ' ').replace(/ · (TTFT (?:\d+ ms|\d+\.\d s) · total (?:\d+ ms|\d+\.\d s) · \d+ chunks|(?:\d+ ms|\d+\.\d s))/g, '').trim())))
    const live = await titles()

    // The exported loop, from the command line, against the same server.
    const loop = await exported(page, 'export-code')
    server.enqueue(...WEATHER_REPLIES[protocol]!)
    const ran = await runTsx(`${folder.dir}/${loop.name}`, ['--json'], { cwd: folder.dir })
    expect(ran.code, ran.stderr).toBe(0)
    const summary = JSON.parse(ran.stdout) as { finalAnswer: string; calls: { name: string; result: string }[] }
    expect(summary.finalAnswer).toBe(ANSWER)
    expect(summary.calls.map((c) => c.name)).toEqual(['get_weather', 'calculate'])
    expect(summary.calls[1]!.result).toBe('{"expression":"(12 + 30) * 2","result":84}')

    // Saved as a mock, the run repeats with the server stopped.
    await page.getByTestId('save-as-mock').click()
    await expect(page.getByTestId('model-source')).toHaveValue('mock')
    await server.close()
    await page.getByTestId('run').click()
    await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
    await expect(page.getByTestId('final-answer')).toHaveText(ANSWER)
    expect(await titles()).toEqual(live)
    server = await startChatServer()
  })
}
