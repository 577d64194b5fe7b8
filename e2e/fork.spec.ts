import path from 'node:path'
import { expect, openApp, setEditor, test } from './fixtures'

const fixtures = path.join(import.meta.dirname, '..', 'src', 'core', '__fixtures__')

test('import → choose a conversation → step → fork → diff against the log', async ({ page }) => {
  await openApp(page)
  // A mock model that answers at once, so the re-run visibly differs from the log.
  await setEditor(page, 'model.ts', "export default function model() {\n  return { role: 'assistant', content: 'I cannot help with reservations.' }\n}\n")
  await page.getByTestId('import-file').setInputFiles(path.join(fixtures, 'tau-bench-gpt-4o-airline.json'))
  await page.getByTestId('conversation-select').selectOption('3')
  await page.getByTestId('step').click()
  await page.getByTestId('step').click()
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'parse')
  await page.getByTestId('fork-here').click()
  const diff = page.getByTestId('diff-view')
  await expect(diff).toBeVisible()
  await expect(page.getByTestId('diff-summary')).toContainText('differ')
  await expect(diff.locator('[data-testid="diff-row"][data-phase="decide"]').first()).toHaveAttribute('data-same', 'false')
  await expect(diff.locator('[data-testid="diff-row"][data-phase="stop"]')).toBeVisible()
  // The re-run is a live timeline of its own, starting from the logged history.
  await page.getByTestId('view-loop').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  await expect(page.getByTestId('final-answer')).toHaveText('I cannot help with reservations.')
  // Back to the log: the replay reopens at the turn that was forked.
  await page.getByTestId('view-diff').click()
  await page.getByTestId('back-to-log').click()
  await expect(page.getByTestId('conversation-select')).toHaveValue('3')
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'decide')
})
