import { expect, openApp, sharedPage, test } from './fixtures'

test.describe('confirmation for dangerous tools', () => {
  // One load for the three decisions: each starts from Reset, on the same example.
  let shared: Awaited<ReturnType<typeof sharedPage>>
  test.beforeAll(async ({ browser }) => {
    shared = await sharedPage(browser)
    await openApp(shared.page)
    await shared.page.getByTestId('example-select').selectOption('dangerous-tool')
  })
  test.afterEach(() => shared.check())
  test.afterAll(() => shared.close())

  for (const [decision, expected] of [
    ['approve', /Done: Deleted notes\/old-draft\.md/],
    ['deny', /You declined the deletion/],
    ['edit', /Done: Deleted notes\/todo\.md/],
  ] as const) {
    test(`${decision}`, async () => {
      const { page } = shared
      if (await page.getByTestId('reset').isEnabled()) await page.getByTestId('reset').click()
      await expect(page.getByTestId('timeline-item')).toHaveCount(0)
      await expect(page.getByTestId('example-select')).toHaveValue('dangerous-tool')
      await page.getByTestId('run').click()
      const dialog = page.getByTestId('confirm-dialog')
      await expect(dialog).toBeVisible()
      await expect(dialog.getByTestId('confirm-call')).toHaveAttribute('data-tool-name', 'delete_file')
      await expect(page.locator('[data-testid="timeline-item"][data-phase="confirm"]')).toHaveCount(1)
      await dialog.getByTestId(`confirm-${decision}`).check()
      if (decision === 'edit') {
        const args = dialog.getByTestId('confirm-arguments')
        await args.fill('{"path": ')
        await dialog.getByTestId('confirm-submit').click()
        await expect(dialog).toContainText('JSON')
        await args.fill('{"path": "notes/todo.md"}')
      }
      await dialog.getByTestId('confirm-submit').click()
      await expect(dialog).toBeHidden()
      await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
      await expect(page.getByTestId('final-answer')).toHaveText(expected)
      await page.locator('[data-testid="timeline-item"][data-phase="confirm"]').last().click()
      await expect(page.getByTestId('decision')).toHaveAttribute('data-decision', decision)
    })
  }
})

test('a denial carries the reason typed in the confirm dialog back to the model as an error result', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('example-select').selectOption('dangerous-tool')
  await page.getByTestId('run').click()
  const dialog = page.getByTestId('confirm-dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByTestId('confirm-deny-reason')).toHaveCount(0)
  await dialog.getByTestId('confirm-deny').check()
  await dialog.getByTestId('confirm-deny-reason').fill('the draft is still in review')
  await dialog.getByTestId('confirm-submit').click()
  await expect(dialog).toBeHidden()
  await expect(page.getByTestId('final-answer')).toHaveText(/You declined the deletion.*Error: The user declined to run this call\. Reason: the draft is still in review/)
  // The delete turn's backfill (the second): the tool message the model was sent.
  await page.locator('[data-testid="timeline-item"][data-phase="backfill"]').nth(1).click()
  await expect(page.locator('[data-testid="message"][data-role="tool"]').last()).toContainText('Error: The user declined to run this call. Reason: the draft is still in review')
})

test('the confirm dialog works from the keyboard and keeps focus inside', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('example-select').selectOption('dangerous-tool')
  await page.getByTestId('run').click()
  const dialog = page.getByTestId('confirm-dialog')
  await expect(dialog).toBeVisible()
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab')
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true)
  }
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page.getByTestId('final-answer')).toHaveText(/You declined/)
})

test('parallel calls are drawn as lanes, one tool message per call', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('example-select').selectOption('parallel-calls')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toBeVisible()
  // At the turn's backfill every call of the turn has finished: the lanes show them all.
  await page.locator('[data-testid="timeline-item"][data-phase="backfill"]').first().click()
  const lanes = page.getByTestId('lanes')
  await expect(lanes).toBeVisible()
  expect(await lanes.getByTestId('lane').count()).toBeGreaterThanOrEqual(3)
  const ids = await page.locator('[data-testid="message"][data-role="tool"]').allInnerTexts()
  expect(ids.length).toBeGreaterThanOrEqual(3)
})

test('a fault-injected timeout is shown in red', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('example-select').selectOption('fault-injection')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toBeVisible({ timeout: 30_000 })
  const timedOut = page.locator('[data-testid="timeline-item"][data-phase="execute"][data-tone="error"]').filter({ hasText: 'timed out' })
  await expect(timedOut.first()).toBeVisible()
  await expect(timedOut.first()).toContainText('fault: timeout')
  await timedOut.first().click()
  await expect(page.getByTestId('tool-result').filter({ hasText: 'injected' }).first()).toHaveAttribute('data-error', 'true')
})

test('code-as-action runs the block, shows each tool call it made, and writes the output back', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('example-select').selectOption('code-as-action')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  const nested = page.locator('[data-testid="timeline-item"][data-phase="execute"]').filter({ hasText: '(from code)' })
  expect(await nested.count()).toBeGreaterThanOrEqual(2)
  const code = page.locator('[data-testid="timeline-item"][data-phase="execute"]').filter({ hasText: 'run_code' })
  await code.first().click()
  await expect(page.getByTestId('tool-result').last()).not.toHaveAttribute('data-error', 'true')
  await page.locator('[data-testid="timeline-item"][data-phase="backfill"]').first().click()
  await expect(page.locator('[data-testid="message"][data-role="tool"]')).toHaveCount(1)
})

test('loop settings change the run and are saved with the workspace', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('example-select').selectOption('repeated-call')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('repeated_call')
  await page.locator('[data-testid=loop-settings] summary').click()
  await page.getByTestId('setting-repeatedCallAction').selectOption('warn')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).not.toHaveText('repeated_call')
  await expect(page.locator('[data-testid="timeline-item"][data-phase="validate"][data-tone="warn"]').first()).toBeVisible()
  // Typed digit by digit, as a person does: "10" over "3" must give 10, not 30 or 310.
  const limit = page.getByTestId('setting-repeatedCallLimit')
  await limit.click()
  await limit.press('ControlOrMeta+A')
  await limit.pressSequentially('10')
  await limit.press('Tab')
  await expect(limit).toHaveValue('10')
  await page.reload()
  await page.locator('[data-testid=loop-settings] summary').click()
  await expect(page.getByTestId('setting-repeatedCallAction')).toHaveValue('warn')
  await expect(page.getByTestId('setting-repeatedCallLimit')).toHaveValue('10')
})
