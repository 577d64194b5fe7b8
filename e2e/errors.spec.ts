import { expect, openApp, test } from './fixtures'

test('unknown tool, invalid arguments and a throwing tool are written back in red', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('example-select').selectOption('errors')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  const errorRows = page.locator('[data-testid="timeline-item"][data-tone="error"]')
  await expect(errorRows.first()).toBeVisible()
  const texts = (await page.locator('[data-testid="timeline-item"][data-phase="execute"][data-tone="error"]').allInnerTexts()).join('\n')
  expect(texts).toMatch(/error/)
  // The model was told: the backfilled tool messages carry the errors.
  await page.locator('[data-testid="timeline-item"][data-phase="backfill"]').first().click()
  await expect(page.locator('[data-testid="message"][data-role="tool"]').first()).toContainText(/Error/)
})

test('a tool stuck in while(true) is killed at its timeout and the page stays responsive', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('example-select').selectOption('hanging-tool')
  await page.getByTestId('run').click()
  // While the worker spins, the main thread still answers.
  await expect(page.getByText('Running…')).toBeVisible()
  const typed = page.getByTestId('user-input')
  await typed.click()
  await typed.press('End')
  await typed.type(' ok')
  await expect(typed).toHaveValue(/ ok$/)
  await expect(page.getByTestId('stop-reason')).toBeVisible({ timeout: 30_000 })
  const timedOut = page.locator('[data-testid="timeline-item"][data-phase="execute"][data-tone="error"]')
  await expect(timedOut.first()).toContainText('timed out')
  // The row and the result say the same duration and the same limit.
  const said = /timed out after (\d+(?:\.\d)? m?s) \(limit (\d+) ms\)/.exec((await timedOut.first().textContent()) ?? '')
  expect(said).not.toBeNull()
  await timedOut.first().click()
  await expect(page.getByTestId('tool-result').first()).toContainText(`timed out after ${said![1]} (limit ${said![2]} ms)`)
})

test('a model that never answers stops with max_steps', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('example-select').selectOption('never-answers')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('max_steps')
})
