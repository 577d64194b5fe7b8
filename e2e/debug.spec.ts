import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, openApp, test } from './fixtures'

const example = (file: string) => readFileSync(path.join(import.meta.dirname, '..', 'src', 'examples', 'weather', file), 'utf8')

const current = '[data-testid="timeline-item"][aria-current="step"]'

test('a conditional breakpoint pauses a live run before the call it names; Run again continues', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('breakpoint-add').click()
  const item = page.getByTestId('breakpoint-item')
  await expect(item).toHaveCount(1)
  await expect(item).toHaveAttribute('data-enabled', 'true')
  const condition = page.getByTestId('breakpoint-condition')
  await condition.fill('call.name ==')
  await expect(page.getByTestId('breakpoint-error')).toContainText('Unexpected end of expression')
  await condition.fill("call.name == 'calculate'")
  await expect(page.getByTestId('breakpoint-error')).toHaveCount(0)
  // The loop diagram marks where it sits: on the execute node's "before" edge.
  await expect(page.getByTestId('diagram-breakpoint')).toHaveCount(1)
  await expect(page.getByTestId('diagram-breakpoint')).toHaveAttribute('data-phase', 'execute')
  await expect(page.getByTestId('diagram-breakpoint')).toHaveAttribute('data-when', 'before')

  // The weather example calls get_weather, then calculate, then answers.
  await page.getByTestId('run').click()
  const hit = page.getByTestId('breakpoint-hit')
  await expect(hit).toContainText('b1')
  await expect(hit).toContainText("before execute when call.name == 'calculate'")
  await expect(hit).toContainText('calculate')
  await expect(page.locator('[data-testid="timeline-item"][data-phase="execute"]')).toHaveCount(1)
  await expect(page.locator(current)).toHaveAttribute('data-phase', 'validate')
  // The gutter marks where the breakpoint sits: ahead of each execute phase.
  await expect(page.locator('[data-testid="timeline-item"][data-phase="execute"] [data-testid="breakpoint-mark"]')).toHaveCount(1)
  await expect(page.getByTestId('stop-reason')).toHaveCount(0)

  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
  await expect(hit).toHaveCount(0)
  await expect(page.locator('[data-testid="timeline-item"][data-phase="execute"]')).toHaveCount(2)

  // Disabled, it no longer pauses; it is kept in the workspace across a reload.
  await page.getByTestId('breakpoint-enabled').uncheck()
  await expect(item).toHaveAttribute('data-enabled', 'false')
  await expect(page.getByTestId('diagram-breakpoint')).toHaveCount(0)
  await expect(page.getByTestId('breakpoint-mark')).toHaveCount(0)
  await page.reload()
  await page.getByTestId('breakpoints-toggle').click()
  await expect(page.getByTestId('breakpoint-item')).toHaveAttribute('data-enabled', 'false')
  await expect(page.getByTestId('breakpoint-condition')).toHaveValue("call.name == 'calculate'")
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
  await expect(hit).toHaveCount(0)
})

test('a conditional breakpoint pauses a replay at the first matching event', async ({ page }) => {
  await openApp(page)
  const log = [
    { role: 'user', content: 'Where are my orders?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"id":"A"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'shipped' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'lookup', arguments: '{"id":"B"}' } }] },
    { role: 'tool', tool_call_id: 'c2', content: 'lost' },
    { role: 'assistant', content: 'A shipped, B is lost.' },
  ]
  await page.getByTestId('import-file').setInputFiles({ name: 'orders.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(log)) })
  await expect(page.getByTestId('toast')).toContainText('orders.json')
  await page.getByTestId('breakpoint-add').click()
  await page.getByTestId('breakpoint-trigger').selectOption('event:tool.finished')
  await page.getByTestId('breakpoint-condition').fill("result.content == 'lost'")

  await page.getByTestId('run').click()
  await expect(page.getByTestId('breakpoint-hit')).toContainText("on tool.finished when result.content == 'lost'")
  await expect(page.locator(current)).toHaveAttribute('data-phase', 'execute')
  await expect(page.locator(current)).toContainText('lookup')
  await expect(page.getByTestId('tool-result').first()).toContainText('lost')

  await page.getByTestId('run').click()
  await expect(page.locator(current)).toHaveAttribute('data-phase', 'stop')
  await expect(page.getByTestId('breakpoint-hit')).toHaveCount(0)
})

test('an eval suite with passing and failing cases: progress, matrix, and a case opens its session', async ({ page }) => {
  await openApp(page)
  const workspace = {
    format: 'toolstep.workspace',
    version: 1,
    tools: example('tools.ts'),
    model: example('model.ts'),
    settings: { protocol: 'openai', maxSteps: 6, systemPrompt: '' },
    input: 'What is the weather in Paris?',
    cases: [
      { id: 'paris', input: 'What is the weather in Paris?', assertions: [{ type: 'tool-used', tool: 'get_weather' }, { type: 'final-answer', contains: 'Paris' }] },
      { id: 'lyon-expects-paris', input: 'What is the weather in Lyon?', assertions: [{ type: 'tool-args-match', tool: 'get_weather', arguments: { city: 'Paris' } }] },
      { id: 'scripted', input: 'Hi', outputs: [{ role: 'assistant', content: 'Hello!' }], assertions: [{ type: 'tool-not-used', tool: 'get_weather' }, { type: 'step-count', equals: 1 }] },
    ],
  }
  await page.getByTestId('import-file').setInputFiles({ name: 'suite.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(workspace)) })
  await expect(page.getByTestId('toast')).toContainText('suite.json')
  await page.getByTestId('view-evals').click()
  await expect(page.getByTestId('eval-case')).toHaveCount(3)
  await page.getByTestId('eval-run').click()
  await expect(page.getByTestId('eval-summary')).toContainText('2 passed, 1 failed')
  await expect(page.getByTestId('eval-summary')).toContainText('end-to-end success 66.7%')
  await expect(page.locator('[data-testid="eval-case"][data-case-id="paris"]')).toHaveAttribute('data-passed', 'true')
  await expect(page.locator('[data-testid="eval-case"][data-case-id="scripted"]')).toHaveAttribute('data-passed', 'true')
  const failing = page.locator('[data-testid="eval-case"][data-case-id="lyon-expects-paris"]')
  await expect(failing).toHaveAttribute('data-passed', 'false')
  await expect(failing.getByTestId('eval-failure')).toContainText('expected {"tool":"get_weather","arguments":{"city":"Paris"}}, actual [{"city":"Lyon"}]')

  await failing.click()
  await expect(page.getByTestId('timeline')).toBeVisible()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
  await expect(page.getByTestId('final-answer')).toContainText('Lyon')
})

test('Compare sessions diffs two logged conversations turn by turn', async ({ page }) => {
  await openApp(page)
  const log = (city: string) => [
    { role: 'user', content: 'Weather?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city }) } }] },
    { role: 'tool', tool_call_id: 'c1', content: `sunny in ${city}` },
    { role: 'assistant', content: 'Sunny.' },
  ]
  await page.getByTestId('view-compare').click()
  await page.getByTestId('compare-file-a').setInputFiles({ name: 'a.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(log('Paris'))) })
  await page.getByTestId('compare-file-b').setInputFiles({ name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(log('Lyon'))) })
  await expect(page.getByTestId('compare-summary')).toContainText('first at turn 1 (arguments)')
  const differing = page.locator('[data-testid="compare-row"][data-same="false"]')
  await expect(differing).toHaveCount(2)
  await expect(differing.first()).toContainText('get_weather {"city":"Lyon"}')
})
