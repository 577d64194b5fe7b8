import { expect, getEditor, inMore, openApp, setEditor, test } from './fixtures'

test('Ctrl+Enter, F10 and Shift+F10 work from inside an editor, without editing the code', async ({ page }) => {
  await openApp(page)
  const before = await getEditor(page, 'model.ts')
  // Near the top left: the lines box is taller than the visible pane, its centre can be outside it.
  await page.getByTestId('editor-model').locator('.view-lines').click({ position: { x: 40, y: 8 } })
  const current = page.locator('[data-testid="timeline-item"][aria-current="step"]')
  await page.keyboard.press('F10')
  await expect(current).toHaveAttribute('data-phase', 'start')
  await page.keyboard.press('F10')
  await expect(current).toHaveAttribute('data-phase', 'decide')
  await page.keyboard.press('Shift+F10')
  await expect(current).toHaveAttribute('data-phase', 'start')
  // Shift+F10 did not open the editor's context menu.
  await expect(page.locator('.context-view .monaco-menu')).toHaveCount(0)
  await page.keyboard.press('Control+Enter')
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  expect(await getEditor(page, 'model.ts')).toBe(before)
})

test('? and the toolbar button open the shortcuts list; Esc closes it', async ({ page }) => {
  await openApp(page)
  const help = page.getByTestId('shortcuts-help')
  await expect(help).toBeHidden()
  await page.getByTestId('timeline').click()
  await page.keyboard.press('?')
  await expect(help).toBeVisible()
  for (const keys of ['Ctrl+Enter', 'F10', 'Shift+F10', '?', 'Esc']) await expect(help.getByTestId('shortcut').filter({ hasText: keys }).first()).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(help).toBeHidden()
  await (await inMore(page, 'open-shortcuts')).click()
  await expect(help).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(help).toBeHidden()
  // Typed into a text field, ? is just a character.
  await page.getByTestId('user-input').fill('Why')
  await page.getByTestId('user-input').press('?')
  await expect(help).toBeHidden()
  await expect(page.getByTestId('user-input')).toHaveValue('Why?')
})

test('the error banner links to the line, and fixing the line there clears it', async ({ page }) => {
  await openApp(page)
  const broken = 'import { tool, z } from "toolstep"\nexport const broken = tool({\n  description: "oops",\n  inputSchema: z.object({}),\n  execute: async () => { return 1 +* 2 },\n})\n'
  await setEditor(page, 'tools.ts', broken)
  await page.getByTestId('run').click()
  const link = page.getByTestId('error-link')
  await expect(link).toContainText('tools.ts:5')
  await link.click()
  const position = await page.evaluate(() => {
    const editor = window.__monaco!.editor.getEditors().find((e) => e.getModel()?.uri.path === '/tools.ts')!
    return { focused: editor.hasTextFocus(), line: editor.getPosition()?.lineNumber }
  })
  expect(position).toEqual({ focused: true, line: 5 })
  // Fix the line by keyboard: `1 +* 2` → `1 + 2` (the `*` is 5 characters before the line's end).
  // A mere space would leave the code broken, and the next check reports the error again.
  await page.keyboard.press('End')
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('Backspace')
  await expect(page.getByTestId('code-problem')).toHaveCount(0)
  expect(await getEditor(page, 'tools.ts')).toContain('return 1 + 2 }')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toBeVisible()
  await expect(page.getByTestId('code-problem')).toHaveCount(0)
})

test('a type error warns on Run, and the run still starts', async ({ page }) => {
  await openApp(page)
  const source = await getEditor(page, 'tools.ts')
  await setEditor(page, 'tools.ts', `${source}\nconst wrong: number = 'not a number'\n`)
  await expect
    .poll(() => page.evaluate(() => window.__monaco!.editor.getModelMarkers({}).filter((m) => m.resource.path === '/tools.ts').length), { timeout: 20_000 })
    .toBeGreaterThan(0)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('toast')).toHaveAttribute('data-kind', 'warning')
  await expect(page.getByTestId('toast')).toContainText('tools.ts:')
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
})

test('invalid numbers are refused visibly with the allowed range; the status bar shows on every tab', async ({ page }) => {
  await openApp(page)
  const maxSteps = page.getByTestId('max-steps')
  for (const value of ['0', '-1', '1e9']) {
    await maxSteps.fill(value)
    await expect(maxSteps).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByTestId('max-steps-error')).toContainText('from 1 to 100')
  }
  await maxSteps.fill('5')
  await expect(page.getByTestId('max-steps-error')).toHaveCount(0)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  await page.getByTestId('view-parse').click()
  await expect(page.getByTestId('current-phase')).toBeVisible()
  await expect(page.getByTestId('stop-reason')).toBeVisible()
})
