import { expect, openApp, setEditor, test } from './fixtures'

/**
 * The Conversation view of a turn of 100 000 parallel calls: the turn's calls are a windowed list
 * inside its card (not 100 000 call boxes in the page), and the view opens on the cursor's card.
 * Long tasks are attached to the report, not asserted (timings go to the bench).
 */
test('conversation view of a turn of 100 000 calls is windowed and follows the cursor', async ({ page }) => {
  test.setTimeout(240_000)
  await page.addInitScript(() => {
    const record = { longest: 0, tasks: 0, armed: false }
    ;(window as unknown as { __longTasks: typeof record }).__longTasks = record
    new PerformanceObserver((list) => {
      if (!record.armed) return
      for (const entry of list.getEntries()) {
        record.tasks++
        record.longest = Math.max(record.longest, entry.duration)
      }
    }).observe({ type: 'longtask', buffered: false })
  })
  await openApp(page)
  await setEditor(page, 'tools.ts', `import { tool, z } from 'toolstep'\nexport const inc = tool({ description: 'x', inputSchema: z.object({ n: z.number() }), execute: ({ n }) => n + 1 })\n`)
  await setEditor(
    page,
    'model.ts',
    `export default function model({ step }) {\n  if (step > 0) return { content: 'done' }\n  return { content: null, tool_calls: Array.from({ length: 100000 }, (_, i) => ({ id: 'c' + i, type: 'function', function: { name: 'inc', arguments: '{"n":' + i + '}' } })) }\n}\n`,
  )
  await page.getByTestId('protocol-select').selectOption('openai')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer', { timeout: 150_000 })
  await page.evaluate(() => ((window as unknown as { __longTasks: { armed: boolean } }).__longTasks.armed = true))
  const view = page.getByTestId('timeline-view')
  await view.getByText('Conversation').click()
  await expect(view).toHaveAttribute('data-value', 'conversation')
  const conversation = page.getByTestId('conversation')
  // The cursor is on Stop: the last card (the final answer) is the current one, and in view.
  const current = conversation.locator('[data-testid="message-card"][aria-current="step"]')
  await expect(current).toBeInViewport()
  await expect(current).toHaveAttribute('data-role', 'assistant')
  await expect(current).toContainText('done')
  // The turn of 100 000 calls: its calls are windowed inside its card.
  await conversation.press('Home')
  await expect(conversation.getByTestId('card-calls-windowed').first()).toBeVisible()
  const calls = await conversation.getByTestId('card-call').count()
  expect(calls).toBeGreaterThan(0)
  expect(calls).toBeLessThan(200)
  await view.getByText('Phases').click()
  await expect(view).toHaveAttribute('data-value', 'phases')
  const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: { longest: number; tasks: number } }).__longTasks)
  test.info().annotations.push({ type: 'long tasks', description: `${longTasks.tasks}, longest ${Math.round(longTasks.longest)} ms` })
  console.log(`long tasks after the run: ${longTasks.tasks}, longest ${Math.round(longTasks.longest)} ms`)
})
