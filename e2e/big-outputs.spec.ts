import { expect, openApp, setEditor, test } from './fixtures'

/**
 * A model that answers with 10 MB of text: the run ends, the raw output is shown windowed (only
 * the rows in view are in the page), and the page still answers clicks. Long tasks are recorded
 * and attached to the report, not asserted (timings go to the bench).
 */
test('a 10 MB text output is shown windowed and the page keeps answering', async ({ page }) => {
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
  await setEditor(page, 'model.ts', `export default function model() {\n  return 'The answer, at length. '.repeat(440_000) + 'END'\n}\n`)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer', { timeout: 30_000 })
  await page.locator('[data-testid="timeline-item"][data-phase="decide"]').first().click()
  await expect(page.getByTestId('raw-output-windowed')).toContainText('10,120,003')
  const raw = page.getByTestId('raw-output')
  await expect(raw).toHaveAttribute('data-windowed', 'true')
  // Only what is in view is in the page: a few rows of at most 2 000 characters each.
  expect(await raw.evaluate((element) => element.textContent?.length ?? 0)).toBeLessThan(100_000)
  await expect(raw).toContainText('The answer, at length.')
  // Scrolled to the end (rows are measured as they appear, so the end moves: scroll until it stays), the last row is there.
  await expect
    .poll(async () => raw.evaluate((element) => (element.scrollTo({ top: element.scrollHeight }), element.textContent?.endsWith('END') ?? false)), { timeout: 15_000 })
    .toBe(true)
  // The page answers: another timeline item is selected at once.
  await page.locator('[data-testid="timeline-item"][data-phase="stop"]').first().click()
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'stop')
  // The Conversation view shows the answer windowed too (it was laid out whole: a 5 s task).
  await page.getByTestId('timeline-view').getByText('Conversation').click()
  const conversation = page.getByTestId('conversation')
  await expect(conversation.locator('[data-windowed="true"]').first()).toContainText('The answer, at length.')
  expect(await conversation.evaluate((element) => element.textContent?.length ?? 0)).toBeLessThan(200_000)
  const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: { longest: number; tasks: number } }).__longTasks)
  test.info().annotations.push({ type: 'long tasks', description: `${longTasks.tasks}, longest ${Math.round(longTasks.longest)} ms` })
})

/**
 * A turn of 100 000 parallel calls, every one run in the QuickJS VM (as one batch): the run
 * finishes, the raw output, the parsed calls and the tool results are windowed lists, and a click
 * on the timeline is answered. How long the run took is attached to the report, not asserted.
 */
test('a turn of 100 000 tool calls is inspected in windowed lists and the page keeps answering', async ({ page }) => {
  test.setTimeout(180_000)
  await openApp(page)
  await setEditor(page, 'tools.ts', `import { tool, z } from 'toolstep'\nexport const echo = tool({ description: 'Echoes n.', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => String(n) })\n`)
  await setEditor(
    page,
    'model.ts',
    `export default function model({ step }) {\n  if (step > 0) return { content: 'done' }\n  return { content: null, tool_calls: Array.from({ length: 100_000 }, (_, n) => ({ id: 'c' + n, type: 'function', function: { name: 'echo', arguments: '{"n":' + n + '}' } })) }\n}\n`,
  )
  await page.getByTestId('protocol-select').selectOption('openai')
  const started = Date.now()
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer', { timeout: 150_000 })
  test.info().annotations.push({ type: 'run', description: `${Date.now() - started} ms from Run to the stop reason` })
  // The timeline is windowed and follows the cursor to the end: go back to the start, then to turn 1's parse.
  await page.getByTestId('timeline').press('Home')
  await page.locator('[data-testid="timeline-item"][data-phase="parse"]').first().click()
  await expect(page.getByTestId('raw-output-windowed')).toContainText('300,000 recognised ranges')
  await expect(page.getByTestId('raw-output')).toHaveAttribute('data-windowed', 'true')
  const parsed = await page.getByTestId('parsed-call').count()
  expect(parsed).toBeGreaterThan(0)
  expect(parsed).toBeLessThan(200)
  // The validation verdicts and the edit-result buttons of the turn are windowed too (100 000 of each were in the page).
  await page.locator('[data-testid="timeline-item"][data-phase="execute"]').first().click()
  await expect(page.getByTestId('verdict').first()).toBeVisible()
  expect(await page.getByTestId('verdict').count()).toBeLessThan(200)
  await expect(page.getByTestId('edit-result').first()).toBeVisible()
  expect(await page.getByTestId('edit-result').count()).toBeLessThan(200)
  await page.getByTestId('timeline').press('End')
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'stop')
})

/**
 * A tool call whose arguments are 10 MB (one string argument): the run ends, and the parsed call's
 * arguments, the conversation's call card and the message list are shown windowed (only the rows
 * in view are in the page) instead of being laid out whole, and the page still answers clicks.
 */
test('a tool call with 10 MB of arguments is shown windowed and the page keeps answering', async ({ page }) => {
  test.setTimeout(90_000)
  await openApp(page)
  await setEditor(page, 'tools.ts', `import { tool, z } from 'toolstep'\nexport const echo = tool({ description: 'Echoes the length.', inputSchema: z.object({ t: z.string() }), execute: ({ t }) => 'got ' + t.length })\n`)
  await setEditor(
    page,
    'model.ts',
    `export default function model({ messages, step }) {\n  if (step === 0) return { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'echo', arguments: JSON.stringify({ t: 'q'.repeat(10_000_000) + 'END' }) } }] }\n  return 'Done ' + messages[messages.length - 1].content\n}\n`,
  )
  await page.getByTestId('protocol-select').selectOption('openai')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer', { timeout: 60_000 })
  // The data is whole: the tool got every character.
  await page.locator('[data-testid="timeline-item"][data-phase="stop"]').first().click()
  await page.locator('[data-testid="timeline-item"][data-phase="parse"]').first().click()
  const call = page.getByTestId('parsed-call')
  await expect(call).toHaveAttribute('data-tool-name', 'echo')
  // Only what is in view is in the page: a few rows of at most 2 000 characters each.
  expect(await call.evaluate((element) => element.textContent?.length ?? 0)).toBeLessThan(100_000)
  const args = page.getByTestId('parsed-arguments')
  await expect(args).toHaveAttribute('data-windowed', 'true')
  // Over a million characters, arguments are shown on one line (wrapped in rows), and say so.
  await expect(args).toContainText('{"t":"qqq')
  await expect(call.getByTestId('arguments-unindented')).toContainText('10,000,011 characters: shown without indentation')
  // Scrolled to the end, the last row is there: the arguments are windowed, not cut.
  await expect
    .poll(async () => args.evaluate((element) => (element.scrollTo({ top: element.scrollHeight }), element.textContent?.includes('END"') ?? false)), { timeout: 15_000 })
    .toBe(true)
  // The page answers: another timeline item is selected at once.
  await page.locator('[data-testid="timeline-item"][data-phase="stop"]').first().click()
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'stop')
  await expect(page.getByTestId('inspector')).toContainText('got 10000003')
  // No view of the page holds the 10 MB whole.
  expect(await page.evaluate(() => document.body.textContent?.length ?? 0)).toBeLessThan(1_000_000)
})

/** A tool that echoes the length of its one string argument, and a model that calls it once with 10 MB of it. */
const bigArgumentTools = (dangerous: boolean) =>
  `import { tool, z } from 'toolstep'\nexport const echo = tool({ description: 'Echoes the length.',${dangerous ? ' dangerous: true,' : ''} inputSchema: z.object({ t: z.string() }), execute: ({ t }) => 'got ' + t.length })\n`
const bigArgumentModel = `export default function model({ messages, step }) {\n  if (step === 0) return { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'echo', arguments: JSON.stringify({ t: 'q'.repeat(10_000_000) + 'END' }) } }] }\n  return 'Done ' + messages[messages.length - 1].content\n}\n`

/**
 * A breakpoint that pauses before a call with 10 MB of arguments: the status line names the call
 * and shows its arguments windowed (they were written whole into the line), the page answers a
 * click, and Run continues to the end with every character reaching the tool.
 */
test('a breakpoint on a call with 10 MB of arguments shows them windowed and the page keeps answering', async ({ page }) => {
  test.setTimeout(90_000)
  await openApp(page)
  await setEditor(page, 'tools.ts', bigArgumentTools(false))
  await setEditor(page, 'model.ts', bigArgumentModel)
  await page.getByTestId('protocol-select').selectOption('openai')
  await page.getByTestId('breakpoint-add').click()
  await page.getByTestId('breakpoint-condition').fill("call.name == 'echo'")
  await page.getByTestId('run').click()
  const hit = page.getByTestId('breakpoint-hit')
  await expect(hit).toContainText('echo', { timeout: 60_000 })
  const args = hit.getByTestId('arguments-windowed')
  await expect(args).toHaveAttribute('data-windowed', 'true')
  await expect(args).toContainText('{"t":"qqq')
  expect(await page.evaluate(() => document.body.textContent?.length ?? 0)).toBeLessThan(1_000_000)
  // The page answers: the breakpoints list (opened by Add) folds away at a click.
  await page.getByTestId('breakpoints-toggle').click()
  await expect(page.getByTestId('breakpoints-toggle')).toHaveAttribute('aria-expanded', 'false')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer', { timeout: 60_000 })
  await expect(hit).toHaveCount(0)
  await page.locator('[data-testid="timeline-item"][data-phase="stop"]').first().click()
  await expect(page.getByTestId('inspector')).toContainText('got 10000003')
})
