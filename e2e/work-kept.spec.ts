import path from 'node:path'
import { expect, getEditor, openApp, setEditor, test } from './fixtures'

const fixtures = path.join(import.meta.dirname, '..', 'src', 'core', '__fixtures__')

test('choosing an example asks before replacing edited code, and the replacement can be undone', async ({ page }) => {
  await openApp(page)
  const edited = `${await getEditor(page, 'tools.ts')}\n// my own note\n`
  await setEditor(page, 'tools.ts', edited)
  const select = page.getByTestId('example-select')
  await select.selectOption('validation')
  const dialog = page.getByTestId('example-switch')
  await expect(dialog).toBeVisible()
  await page.getByTestId('example-switch-keep').click()
  await expect(dialog).toBeHidden()
  await expect(select).toHaveValue('weather')
  expect(await getEditor(page, 'tools.ts')).toBe(edited)

  // Esc keeps the code too.
  await select.selectOption('validation')
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  expect(await getEditor(page, 'tools.ts')).toBe(edited)

  await select.selectOption('validation')
  await page.getByTestId('example-switch-replace').click()
  await expect(select).toHaveValue('validation')
  await expect.poll(() => getEditor(page, 'tools.ts')).not.toContain('// my own note')
  await page.getByTestId('toast-action').click()
  await expect(select).toHaveValue('weather')
  await expect.poll(() => getEditor(page, 'tools.ts')).toBe(edited)

  // An unedited workspace switches without a question.
  await setEditor(page, 'tools.ts', edited.replace('\n// my own note\n', ''))
  await select.selectOption('errors')
  await expect(dialog).toBeHidden()
  await expect(select).toHaveValue('errors')
})

test('opening a lesson asks before replacing edited code, and the replacement can be undone', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('lessons-toggle').click()
  const lesson = (id: string) => page.locator(`[data-testid="lesson-item"][data-lesson-id="${id}"]`)
  // Unedited: a lesson opens at once, and another one after it too.
  await lesson('registry-tags').click()
  await expect(page.getByTestId('example-switch')).toBeHidden()
  const registry = await getEditor(page, 'tools.ts')
  await lesson('confirmation').click()
  await expect.poll(() => getEditor(page, 'tools.ts')).toContain('delete_file')

  const edited = `${await getEditor(page, 'tools.ts')}\n// my own note\n`
  await setEditor(page, 'tools.ts', edited)
  await lesson('registry-tags').click()
  await expect(page.getByTestId('example-switch')).toBeVisible()
  await page.getByTestId('example-switch-keep').click()
  expect(await getEditor(page, 'tools.ts')).toBe(edited)

  await lesson('registry-tags').click()
  await page.getByTestId('example-switch-replace').click()
  await expect.poll(() => getEditor(page, 'tools.ts')).toBe(registry)
  await page.getByTestId('toast-action').click()
  await expect.poll(() => getEditor(page, 'tools.ts')).toBe(edited)
})

test('a second tab of the app is detected and said, in both tabs', async ({ page, context }) => {
  await openApp(page)
  await expect(page.getByTestId('other-tab')).toHaveCount(0)
  const second = await context.newPage()
  await second.goto('/')
  await expect(second.getByTestId('other-tab')).toBeVisible()
  await expect(page.getByTestId('other-tab')).toBeVisible()
  // The other tab saving its code is called out as an overwrite.
  await expect(second.getByTestId('editor-tools').locator('.monaco-editor')).toBeVisible()
  await second.getByTestId('user-input').fill('Edited in the second tab')
  await expect(page.getByTestId('other-tab')).toContainText('saved its code over')
  await second.close()
})

test('a reload keeps the open run, cursor included', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  const count = await page.getByTestId('timeline-item').count()
  await page.locator('[data-testid="timeline-item"][data-phase="execute"]').first().click()
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('toolstep.lastSession') ?? '{}').cursor === 4)
  await page.reload()
  await expect(page.getByTestId('timeline-item')).toHaveCount(count)
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'execute')
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
})

test('a reload offers to reopen the imported log at the same conversation and event', async ({ page }) => {
  await openApp(page)
  const log = path.join(fixtures, 'tau-bench-gpt-4o-airline.json')
  await page.getByTestId('import-file').setInputFiles(log)
  await page.getByTestId('conversation-select').selectOption('3')
  await page.getByTestId('step').click()
  await page.getByTestId('step').click()
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('toolstep.lastSession') ?? '{}').cursor === 2)
  await page.reload()
  const banner = page.getByTestId('reopen-log')
  await expect(banner).toContainText('tau-bench-gpt-4o-airline.json')
  await expect(banner).toContainText('conversation 4')
  await page.getByTestId('reopen-file').setInputFiles(log)
  await expect(page.getByTestId('conversation-select')).toHaveValue('3')
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'parse')
  await expect(banner).toHaveCount(0)
})

test('a reload offers to reopen a log imported as several request/response files, and reopens it from the same files', async ({ page }) => {
  await openApp(page)
  const captures = path.join(import.meta.dirname, '..', 'src', 'core', 'trace', '__fixtures__', 'captures')
  const files = ['1.request.json', '1.response.json', '2.request.json', '2.response.json'].map((end) => path.join(captures, `openai-chat-parallel-tools.${end}`))
  await page.getByTestId('import-file').setInputFiles(files)
  await expect(page.getByTestId('timeline-item').first()).toBeVisible()
  await page.getByTestId('timeline-item').nth(2).click()
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('toolstep.lastSession') ?? '{}').cursor === 2)
  await page.reload()
  const banner = page.getByTestId('reopen-log')
  await expect(banner).toContainText('4 files')
  await page.getByTestId('reopen-file').setInputFiles(files)
  await expect(banner).toHaveCount(0)
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('id', 'timeline-item-2')
})

test('the new behaviour examples run to their answers in the app', async ({ page }) => {
  await openApp(page)
  for (const [id, answer] of [
    ['sequential-calls', 'Each step ran alone, in order.'],
    ['unknown-arguments', 'Lisbon:'],
    ['result-truncation', 'I saw only 600 of 5000 characters'],
    ['parse-give-up', 'Tool calls are retried'],
  ] as const) {
    await page.getByTestId('example-select').selectOption(id)
    await page.getByTestId('run').click()
    await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
    await expect(page.getByTestId('final-answer')).toContainText(answer)
  }
})

test('importing a workspace file asks before replacing edited code, and the replacement can be undone', async ({ page }) => {
  await openApp(page)
  const edited = `${await getEditor(page, 'tools.ts')}\n// my own note\n`
  await setEditor(page, 'tools.ts', edited)
  const file = {
    name: 'shared-workspace.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ format: 'toolstep.workspace', version: 1, tools: '// tools from the file\n', model: '// model from the file\n', input: 'From the file', settings: { protocol: 'openai', maxSteps: 8 } })),
  }
  const dialog = page.getByTestId('example-switch')
  await page.getByTestId('import-file').setInputFiles(file)
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('shared-workspace.json')
  await page.getByTestId('example-switch-keep').click()
  await expect(dialog).toBeHidden()
  expect(await getEditor(page, 'tools.ts')).toBe(edited)
  // Keeping the code says nothing was loaded.
  await expect(page.getByTestId('toast')).toHaveCount(0)

  await page.getByTestId('import-file').setInputFiles(file)
  await page.getByTestId('example-switch-replace').click()
  await expect.poll(() => getEditor(page, 'tools.ts')).toBe('// tools from the file\n')
  await expect(page.getByTestId('user-input')).toHaveValue('From the file')
  await page.getByTestId('toast-action').click()
  await expect.poll(() => getEditor(page, 'tools.ts')).toBe(edited)
  await expect(page.getByTestId('user-input')).not.toHaveValue('From the file')
})

test('a run paused before a reload comes back paused at the same event, and Step and Run go on from there', async ({ page }) => {
  await openApp(page)
  for (const count of [1, 2, 3]) {
    await page.getByTestId('step').click()
    await expect(page.getByTestId('timeline-item')).toHaveCount(count)
  }
  await page.locator('[data-testid="timeline-item"]').nth(1).click()
  // The save made after the third step: the one after the second step has cursor 1 too (and two
  // events), and a reload on it, when the third step took longer than the save's delay, lost that step.
  await page.waitForFunction(() => {
    const saved = JSON.parse(localStorage.getItem('toolstep.lastSession') ?? '{}')
    return saved.cursor === 1 && saved.events?.length === 3
  })
  await page.reload()
  await expect(page.getByTestId('timeline-item')).toHaveCount(3)
  await expect(page.getByTestId('status-bar')).toContainText('Paused')
  await expect(page.getByTestId('status-bar')).not.toContainText('Finished')
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'decide')
  // Step walks the kept events first, then performs the next phase of the same run.
  await page.getByTestId('step').click()
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'parse')
  await page.getByTestId('step').click()
  await expect(page.getByTestId('timeline-item')).toHaveCount(4)
  await expect(page.locator('[data-testid="timeline-item"]').nth(3)).toHaveAttribute('data-phase', 'validate')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  // The same run went on: its first events are the ones kept over the reload.
  await expect(page.locator('[data-testid="timeline-item"][data-phase="start"]')).toHaveCount(1)
})
