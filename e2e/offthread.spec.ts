import { expect, openApp, setEditor, test } from './fixtures'

/**
 * A turn of 20 000 parallel tool calls (100 000 would mostly measure the QuickJS VM that runs
 * every tool; `npm run bench main-thread` has the 100 000-call turn): while the run goes, the
 * page keeps answering clicks — the editor tabs switch while the run is still in progress —
 * and afterwards the timeline shows the calls. Nothing here is timed; long tasks are attached
 * to the report (the numbers go to the bench).
 */
// fixme: does not reach its end within 4 minutes in CI; the 100 000-call turn in big-outputs.spec.ts covers the page staying usable meanwhile.
test.fixme('the page answers while a turn of 20 000 tool calls is parsed, validated and run', async ({ page }) => {
  test.setTimeout(240_000)
  await page.addInitScript(() => {
    const record = { longest: 0, tasks: 0 }
    ;(window as unknown as { __longTasks: typeof record }).__longTasks = record
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        record.tasks++
        record.longest = Math.max(record.longest, entry.duration)
      }
    }).observe({ type: 'longtask', buffered: false })
  })
  await openApp(page)
  await setEditor(page, 'tools.ts', `import { tool, z } from 'toolstep'\nexport const echo = tool({ description: 'Echoes n.', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => String(n) })\n`)
  await setEditor(
    page,
    'model.ts',
    `export default function model({ step }) {\n  if (step > 0) return { content: 'done' }\n  return { content: null, tool_calls: Array.from({ length: 20_000 }, (_, n) => ({ id: 'c' + n, type: 'function', function: { name: 'echo', arguments: '{"n":' + n + ',"note":"' + 'x'.repeat(20) + '"}' } })) }\n}\n`,
  )
  await page.getByTestId('protocol-select').selectOption('openai')
  await page.getByTestId('run').click()

  // Switch editor tabs back and forth while the run goes; each click must be answered.
  const tabs = [page.getByTestId('editor-tab-tools'), page.getByTestId('editor-tab-model')]
  let answeredWhileRunning = 0
  for (let i = 0; i < 40; i++) {
    const tab = tabs[i % 2]!
    await tab.click()
    await expect(tab).toHaveAttribute('aria-selected', 'true')
    if ((await page.getByTestId('stop-reason').count()) > 0) break
    answeredWhileRunning++
  }
  expect(answeredWhileRunning, 'clicks answered while the run was still going').toBeGreaterThan(0)

  await expect(page.getByTestId('stop-reason')).toContainText('final_answer', { timeout: 200_000 })
  // The timeline shows the turn: its parse lists the calls (windowed), and there are execute rows.
  await page.getByTestId('timeline').press('Home')
  await page.locator('[data-testid="timeline-item"][data-phase="parse"]').first().click()
  await expect(page.getByTestId('parsed-call').first()).toBeVisible()
  await expect(page.getByTestId('parsed-call').first()).toHaveAttribute('data-tool-name', 'echo')
  await page.locator('[data-testid="timeline-item"][data-phase="execute"]').first().click()
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'execute')
  // The backfilled assistant message names how many calls it holds without listing 20 000 lines.
  await page.getByTestId('timeline').press('End')
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'stop')
  const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: { longest: number; tasks: number } }).__longTasks)
  test.info().annotations.push({ type: 'long tasks', description: `${longTasks.tasks}, longest ${Math.round(longTasks.longest)} ms` })
})
