import { expect, openApp, test } from './fixtures'

const item = (phase: string) => `[data-testid="timeline-item"][data-phase="${phase}"]`
const current = '[data-testid="timeline-item"][aria-current="step"]'

/** An OpenAI-wire assistant message calling one tool, as the raw output of a native turn is logged. */
const nativeCall = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ role: 'assistant', content: null, tool_calls: [{ id: 'call_edited', type: 'function', function: { name, arguments: JSON.stringify(args) } }] }, null, 2)

test('edit the model output of a live run at turn 1 so it calls another tool; the rest of the run differs and Diff shows it', async ({ page }) => {
  await openApp(page)
  // The weather example asks get_weather, then calculate, then answers from both.
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
  await expect(page.getByTestId('final-answer')).toContainText('Paris')

  await page.locator(item('decide')).first().click()
  await page.getByTestId('edit-output').click()
  await expect(page.getByTestId('edit-text')).toHaveValue(/get_weather/)
  await page.getByTestId('edit-text').fill(nativeCall('get_time', { timezone: 'Asia/Tokyo' }))
  await page.getByTestId('edit-apply').click()

  // The edit is an event of its own; the edited output was parsed again and the run went on.
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
  await expect(page.locator(item('edit'))).toHaveCount(1)
  await expect(page.locator(item('edit'))).toContainText('Edit · model output')
  await expect(page.getByTestId('final-answer')).toContainText('Asia/Tokyo')
  await expect(page.getByTestId('final-answer')).not.toContainText('Paris')
  await page.locator(item('edit')).click()
  await expect(page.getByTestId('edit-original')).toContainText('get_weather')
  await expect(page.getByTestId('edit-edited')).toContainText('get_time')
  await page.locator(item('parse')).first().click()
  await expect(page.locator('[data-testid="parsed-call"]').first()).toHaveAttribute('data-tool-name', 'get_time')

  await page.getByTestId('view-diff').click()
  await expect(page.getByTestId('view-diff')).toHaveText('Diff vs original')
  await expect(page.getByTestId('diff-summary')).toContainText('differ')
  const parse = page.locator('[data-testid="diff-row"][data-phase="parse"]').first()
  await expect(parse).toHaveAttribute('data-same', 'false')
  await expect(parse).toContainText('get_weather')
  await expect(parse).toContainText('get_time')
  // Back to the original: the run as it was, at the edited decide.
  await page.getByTestId('back-to-log').click()
  await expect(page.getByTestId('final-answer')).toContainText('Paris')
  await expect(page.locator(item('edit'))).toHaveCount(0)
  await expect(page.locator(current)).toHaveAttribute('data-phase', 'decide')
})

test('edit a replayed model output: the conversation continues live from there, and Diff compares it with the log', async ({ page }) => {
  await openApp(page)
  const log = [
    { role: 'user', content: 'Where are my orders?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"id":"A"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'shipped' },
    { role: 'assistant', content: 'Order A has shipped.' },
  ]
  await page.getByTestId('import-file').setInputFiles({ name: 'orders.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(log)) })
  await expect(page.getByTestId('toast')).toContainText('orders.json')
  await page.locator(item('decide')).first().click()
  await page.getByTestId('edit-output').click()
  await page.getByTestId('edit-text').fill(nativeCall('get_weather', { city: 'Oslo' }))
  await page.getByTestId('edit-apply').click()

  // The workspace's tools ran the edited call; its mock model answered from the result.
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
  await expect(page.getByTestId('final-answer')).toContainText('Oslo')
  await expect(page.locator(`${item('execute')}`)).toContainText('get_weather')
  await page.getByTestId('view-diff').click()
  await expect(page.getByTestId('diff-summary')).toContainText('differ')
  await expect(page.locator('[data-testid="diff-row"][data-phase="parse"]').first()).toContainText('lookup')
  await page.getByTestId('back-to-log').click()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
  await expect(page.locator(item('execute'))).toContainText('lookup')
})

test('edit a tool result: the edited result is backfilled, the model answers from it, and the cards show the original', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
  await page.locator(item('execute')).first().click()
  await page.getByTestId('edit-result').first().click()
  await expect(page.getByTestId('edit-text')).toHaveValue(/Paris/)
  await page.getByTestId('edit-text').fill('{"city":"Paris","temperature":-40,"unit":"celsius","conditions":"a blizzard"}')
  await page.getByTestId('edit-apply').click()

  await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
  await expect(page.getByTestId('final-answer')).toContainText('-40 °C and a blizzard')
  await expect(page.locator(item('edit'))).toContainText('result of get_weather')
  await page.getByTestId('view-diff').click()
  await expect(page.locator('[data-testid="diff-row"][data-phase="execute"]').first()).toHaveAttribute('data-same', 'false')
  await page.getByTestId('view-loop').click()
  await page.getByTestId('timeline-view').getByText('Conversation').click()
  await expect(page.getByTestId('card-edited')).toHaveCount(1)
  await page.getByTestId('card-edited').locator('summary').click()
  await expect(page.getByTestId('card-edited')).toContainText('Paris')
  await expect(page.getByTestId('card-edited')).not.toContainText('blizzard')
})
