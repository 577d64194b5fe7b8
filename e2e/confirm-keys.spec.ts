/**
 * The confirmation of a call to a dangerous tool is a decision: a key pressed to step the lesson
 * (Space in presenter mode, Enter) must not make it. The dialog opens with nothing focused that
 * a key would press; the choice is made by clicking, or by Tab to a control.
 */
import { expect, openApp, test } from './fixtures'

test('in presenter mode, stepping with Space into the confirmation does not approve the dangerous call', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('example-select').selectOption('dangerous-tool')
  await page.getByTestId('presenter-toggle').click()
  // Space on the focused toggle would press it: the keys go to the page, as after a click on it.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  const dialog = page.getByTestId('confirm-dialog')
  const confirmRows = page.locator('[data-testid="timeline-item"][data-phase="confirm"]')
  // Step (Space) until the dialog asks; each press waits for its step (a new row, or the question).
  const rows = page.getByTestId('timeline-item')
  for (let i = 0; i < 30 && !(await dialog.isVisible()); i++) {
    const before = await rows.count()
    await page.keyboard.press('Space')
    await expect.poll(async () => (await dialog.isVisible()) || (await rows.count()) > before).toBe(true)
  }
  await expect(dialog).toBeVisible()
  await expect(confirmRows).toHaveCount(1)
  // The next presses of the stepping keys leave the question open.
  for (const key of ['Space', 'Enter', 'ArrowRight', 'Space']) await page.keyboard.press(key)
  await expect(dialog).toBeVisible()
  await expect(confirmRows).toHaveCount(1)
  await expect(page.getByTestId('stop-reason')).toHaveCount(0)
  // A click decides.
  await dialog.getByTestId('confirm-deny').check()
  await dialog.getByTestId('confirm-submit').click()
  await expect(dialog).toBeHidden()
  await confirmRows.last().click()
  await expect(page.getByTestId('decision')).toHaveAttribute('data-decision', 'deny')
})

test('the confirm dialog takes focus itself, so Enter does not approve; Tab reaches its controls', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('example-select').selectOption('dangerous-tool')
  await page.getByTestId('run').click()
  const dialog = page.getByTestId('confirm-dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog).toBeFocused()
  await page.keyboard.press('Enter')
  await page.keyboard.press('Space')
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(dialog.locator(':focus')).toHaveCount(1)
})
