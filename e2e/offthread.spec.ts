import { expect, openApp, setEditor, test } from './fixtures'

/**
 * A turn of 20 000 parallel tool calls (100 000 would mostly measure the QuickJS VM that runs
 * every tool; `npm run bench main-thread` has the 100 000-call turn). Its raw output (1.6 MB)
 * and its calls are parsed and validated in the engine-phase worker, which the page starts only
 * for a big turn; while the run goes, the page keeps answering clicks (the editor tabs switch
 * while Stop is still shown), and afterwards the timeline shows the calls. Nothing here is
 * timed: long tasks are attached to the report (their numbers go to the bench).
 */
test('the page answers while a turn of 20 000 tool calls is parsed and validated off the main thread', async ({ page }) => {
  test.setTimeout(120_000)
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
  const workers: string[] = []
  page.on('worker', (worker) => workers.push(worker.url()))
  await openApp(page)
  // The editor tabs exist in the tabs layout only (the default shows both files split).
  await page.getByTestId('editor-layout').click()
  const tabs = [page.getByTestId('editor-tab-tools'), page.getByTestId('editor-tab-model')] as const
  await expect(tabs[0]).toBeVisible()
  await setEditor(page, 'tools.ts', `import { tool, z } from 'toolstep'\nexport const echo = tool({ description: 'Echoes n.', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => String(n) })\n`)
  await setEditor(
    page,
    'model.ts',
    `export default function model({ step }) {\n  if (step > 0) return { content: 'done' }\n  return { content: null, tool_calls: Array.from({ length: 20_000 }, (_, n) => ({ id: 'c' + n, type: 'function', function: { name: 'echo', arguments: '{"n":' + n + ',"note":"' + 'x'.repeat(20) + '"}' } })) }\n}\n`,
  )
  await page.getByTestId('protocol-select').selectOption('openai')
  expect(workers.filter((url) => url.includes('engine-phases')), 'no engine-phase worker before a big turn').toEqual([])
  await page.getByTestId('run').click()
  await expect(page.getByTestId('run-stop')).toBeVisible()

  // Switch editor tabs back and forth while the run goes; each click must be answered.
  let answeredWhileRunning = 0
  for (let i = 0; i < 200; i++) {
    const tab = tabs[i % 2]!
    await tab.click()
    await expect(tab).toHaveAttribute('aria-selected', 'true')
    if ((await page.getByTestId('run-stop').count()) === 0) break
    answeredWhileRunning++
  }
  expect(answeredWhileRunning, 'clicks answered while the run was still going').toBeGreaterThan(0)

  await expect(page.getByTestId('stop-reason')).toContainText('final_answer', { timeout: 90_000 })
  // The turn's parse and validation were done by the engine-phase worker, not the page.
  expect(workers.filter((url) => url.includes('engine-phases')), 'engine-phase workers started').toHaveLength(1)
  // The timeline shows the turn: its parse lists the calls (windowed), and there are execute rows.
  await page.getByTestId('timeline').press('Home')
  await page.locator('[data-testid="timeline-item"][data-phase="parse"]').first().click()
  await expect(page.getByTestId('parsed-call').first()).toBeVisible()
  await expect(page.getByTestId('parsed-call').first()).toHaveAttribute('data-tool-name', 'echo')
  expect(await page.getByTestId('parsed-call').count()).toBeLessThan(200)
  await page.locator('[data-testid="timeline-item"][data-phase="execute"]').first().click()
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'execute')
  await page.getByTestId('timeline').press('End')
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'stop')
  const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: { longest: number; tasks: number } }).__longTasks)
  test.info().annotations.push({ type: 'long tasks', description: `${longTasks.tasks}, longest ${Math.round(longTasks.longest)} ms` })
  test.info().annotations.push({ type: 'clicks answered while running', description: String(answeredWhileRunning) })
})
