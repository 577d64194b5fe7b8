import path from 'node:path'
import { expect, openApp, test, timelineRows } from './fixtures'

const fixtures = path.join(import.meta.dirname, '..', 'src', 'core', '__fixtures__')

test('replays the tau-bench log: choose a conversation, step, see the duplicate tool_call_id', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('import-file').setInputFiles(path.join(fixtures, 'tau-bench-gpt-4o-airline.json'))
  await expect(page.getByTestId('toast')).toContainText('200 conversations')
  const select = page.getByTestId('conversation-select')
  await expect(select.locator('option')).toHaveCount(200)
  // Conversation 4 (index 3) reuses a tool_call_id at message 44.
  await select.selectOption('3')
  const current = page.locator('[data-testid="timeline-item"][aria-current="step"]')
  await expect(current).toHaveAttribute('data-phase', 'start')
  await page.getByTestId('step').click()
  await expect(current).toHaveAttribute('data-phase', 'decide')
  await expect(page.getByTestId('raw-output')).toBeVisible()
  await page.getByTestId('step').click()
  await expect(current).toHaveAttribute('data-phase', 'parse')
  // The reuse is far down the conversation: jump to it.
  await page.getByTestId('next-anomaly').click()
  const anomaly = page.getByTestId('anomaly').filter({ hasText: 'duplicate_tool_call_id' })
  await expect(anomaly.first()).toBeVisible()
  await expect(current.getByTestId('anomaly')).toContainText('duplicate_tool_call_id')
  await expect(page.getByTestId('anomaly-detail').first()).toContainText('duplicate_tool_call_id')
  await expect(page.getByTestId('anomaly-detail').first()).toContainText('call_B1wTKndCK0SgWj4uYElOR9nt')
  // Run in a replay plays it to the end instead of replacing it with a live run.
  await page.getByTestId('run').click()
  await expect(current).toHaveAttribute('data-phase', 'stop')
  await expect(select).toHaveValue('3')
  await page.getByTestId('close-replay').click()
  await expect(page.getByTestId('conversation-select')).toHaveCount(0)
  await expect(page.getByTestId('timeline-item')).toHaveCount(0)
})

test('a tools file makes replay flag calls that break their schema', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('import-file').setInputFiles(path.join(fixtures, 'tau-bench-gpt-4o-airline.json'))
  await expect(page.getByTestId('conversation-select')).toBeVisible()
  await page.getByTestId('import-file').setInputFiles(path.join(fixtures, 'tau-bench-airline-tools.json'))
  await expect(page.getByTestId('toast')).toContainText('14 tool schemas')
  await expect(page.locator('[data-testid="timeline-item"][data-phase="validate"]').first()).toBeAttached()
})

test('a 600-message conversation is virtualised and scrolls to its end', async ({ page }) => {
  await openApp(page)
  const messages: unknown[] = [{ role: 'system', content: 'You are helpful.' }, { role: 'user', content: 'Count.' }]
  for (let i = 0; i < 300; i++) {
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'count', arguments: JSON.stringify({ n: i }) } }] })
    messages.push({ role: 'tool', tool_call_id: `call_${i}`, content: String(i) })
  }
  messages.push({ role: 'assistant', content: 'Done counting.' })
  await page.getByTestId('import-file').setInputFiles({ name: 'long.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(messages)) })
  await expect(page.getByTestId('toast')).toContainText('1 conversation')
  const rendered = await page.getByTestId('timeline-item').count()
  expect(rendered).toBeLessThan(100)
  await page.getByTestId('timeline').focus()
  await page.keyboard.press('End')
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'stop')
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  expect((await timelineRows(page)).length).toBeLessThan(100)
})

test('a broken file gets a clear error and leaves the open work untouched', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  const before = await timelineRows(page)
  await page.getByTestId('import-file').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"toolstep.session","version":1,"workspace":null,"events":[{"seq":0}]}') })
  await expect(page.getByTestId('toast')).toContainText('events[0]')
  expect(await timelineRows(page)).toEqual(before)
  await page.getByTestId('import-file').setInputFiles({ name: 'junk.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": ') })
  await expect(page.getByTestId('toast')).toContainText('junk.json')
  expect(await timelineRows(page)).toEqual(before)
})
