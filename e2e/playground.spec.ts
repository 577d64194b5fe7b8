import { expect, getEditor, openApp, setEditor, sharedPage, test, timelineRows } from './fixtures'

test.describe('the default example, on one page', () => {
  // One load for the first look and the three protocols' runs: each run starts from Reset.
  let shared: Awaited<ReturnType<typeof sharedPage>>
  test.beforeAll(async ({ browser }) => {
    shared = await sharedPage(browser)
    await openApp(shared.page)
  })
  test.afterEach(() => shared.check())
  test.afterAll(() => shared.close())

test('opens with the default example loaded and Monaco bundled', async () => {
  const { page } = shared
  await expect(page.getByTestId('example-select')).toHaveValue('weather')
  expect(await getEditor(page, 'tools.ts')).toContain('get_weather')
  expect(await getEditor(page, 'tools.ts')).toContain('calculate')
  expect(await getEditor(page, 'model.ts')).toContain('export default')
  const protocols = await page.getByTestId('protocol-select').locator('option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))
  expect(protocols).toEqual(expect.arrayContaining(['openai', 'json', 'xml-tag']))
  await expect(page.getByTestId('timeline')).toContainText('Nothing has run yet')
})

for (const protocol of ['openai', 'json', 'xml-tag']) {
  test(`runs the default example to a final answer speaking ${protocol}`, async () => {
    const { page } = shared
    // The run before this one (if any) is cleared, so what follows is this protocol's run alone.
    if (await page.getByTestId('reset').isEnabled()) await page.getByTestId('reset').click()
    await expect(page.getByTestId('timeline-item')).toHaveCount(0)
    await page.getByTestId('protocol-select').selectOption(protocol)
    await page.getByTestId('run').click()
    await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
    await expect(page.getByTestId('final-answer')).not.toBeEmpty()
    const phases = await page.getByTestId('timeline-item').evaluateAll((r) => r.map((x) => x.getAttribute('data-phase')))
    expect(phases).toEqual(expect.arrayContaining(['start', 'decide', 'parse', 'validate', 'execute', 'backfill', 'stop']))
    // Select the first decide: the raw output sits beside the parsed call, with the call highlighted.
    await page.locator('[data-testid="timeline-item"][data-phase="parse"]').first().click()
    await expect(page.getByTestId('raw-output')).toBeVisible()
    await expect(page.getByTestId('parsed-call').first()).toHaveAttribute('data-tool-name', /get_weather|calculate|get_time/)
    const name = await page.getByTestId('parsed-call').first().getAttribute('data-tool-name')
    await expect(page.getByTestId('raw-output').locator('mark[data-kind="name"]').first()).toHaveText(name!)
  })
}
})

test('Step advances one phase, Back returns one, Reset starts over', async ({ page }) => {
  await openApp(page)
  const current = page.locator('[data-testid="timeline-item"][aria-current="step"]')
  await page.getByTestId('step').click()
  await expect(current).toHaveAttribute('data-phase', 'start')
  await expect(page.getByTestId('current-phase')).toHaveText('start')
  await page.getByTestId('step').click()
  await expect(current).toHaveAttribute('data-phase', 'decide')
  await expect(page.getByTestId('raw-output')).toBeVisible()
  await page.getByTestId('step').click()
  await expect(current).toHaveAttribute('data-phase', 'parse')
  await expect(page.getByTestId('parsed-call')).toHaveCount(1)
  await page.getByTestId('step').click()
  await expect(current).toHaveAttribute('data-phase', 'validate')
  await page.getByTestId('step').click()
  await expect(current).toHaveAttribute('data-phase', 'execute')
  await expect(page.getByTestId('tool-result').first()).toBeVisible()
  await page.getByTestId('step').click()
  await expect(current).toHaveAttribute('data-phase', 'backfill')
  await expect(page.getByTestId('timeline-item')).toHaveCount(6)

  await page.getByTestId('step-back').click()
  await expect(current).toHaveAttribute('data-phase', 'execute')
  await page.getByTestId('step-back').click()
  await expect(current).toHaveAttribute('data-phase', 'validate')
  // Nothing is re-run on the way back: the log keeps its six events.
  await expect(page.getByTestId('timeline-item')).toHaveCount(6)
  await page.getByTestId('step').click()
  await expect(current).toHaveAttribute('data-phase', 'execute')

  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  await page.getByTestId('reset').click()
  await expect(page.getByTestId('timeline-item')).toHaveCount(0)
  await expect(page.getByTestId('stop-reason')).toHaveCount(0)
})

test('a syntax error in tools.ts says why Run cannot start, and keeps the code', async ({ page }) => {
  await openApp(page)
  const broken = 'import { tool, z } from "toolstep"\nexport const broken = tool({\n  description: "oops",\n  inputSchema: z.object({}),\n  execute: async () => { return 1 +* 2 },\n})\n'
  await setEditor(page, 'tools.ts', broken)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('code-problem')).toContainText('tools.ts:5')
  await expect(page.getByTestId('timeline-item')).toHaveCount(0)
  expect(await getEditor(page, 'tools.ts')).toBe(broken)
  // Reload: the work survives.
  await page.reload()
  await expect(page.getByTestId('editor-tools').locator('.monaco-editor')).toBeVisible()
  expect(await getEditor(page, 'tools.ts')).toBe(broken)
})

test('timeline rows follow the keyboard', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  const rows = await timelineRows(page)
  await page.getByTestId('timeline').focus()
  await page.keyboard.press('Home')
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'start')
  await page.keyboard.press('ArrowDown')
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'decide')
  await page.keyboard.press('End')
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'stop')
  expect(rows.length).toBeGreaterThan(8)
})

test('the editor knows the toolstep API: no errors on the example, a type error is marked', async ({ page }) => {
  await openApp(page)
  const markers = () =>
    page.evaluate(() => {
      const monaco = window.__monaco!
      const uri = monaco.Uri.parse('file:///tools.ts')
      return monaco.editor.getModelMarkers({ resource: uri }).map((m) => `${m.startLineNumber}: ${m.message}`)
    })
  // Ask the editor's TypeScript worker itself for the example's diagnostics (null until the
  // worker has started): its answer is the signal that checking is done, not a fixed delay.
  const diagnostics = () =>
    page.evaluate(async () => {
      try {
        const uri = window.__monaco!.Uri.parse('file:///tools.ts')
        const worker = await (await window.__monacoTypeScript!.getTypeScriptWorker())(uri)
        const found = [...(await worker.getSyntacticDiagnostics(uri.toString())), ...(await worker.getSemanticDiagnostics(uri.toString()))]
        return found.map((d) => (typeof d.messageText === 'string' ? d.messageText : d.messageText.messageText))
      } catch {
        return null
      }
    })
  await expect.poll(diagnostics, { timeout: 20_000 }).not.toBeNull()
  expect(await diagnostics()).toEqual([])
  expect(await markers()).toEqual([])
  const source = await getEditor(page, 'tools.ts')
  await setEditor(page, 'tools.ts', `${source}\nexport const broken = tool({ description: 'x', inputSchema: z.object({ n: z.number() }), execute: ({ n }) => n.toUpperCase() })\n`)
  await expect.poll(async () => (await markers()).join('\n'), { timeout: 20_000 }).toMatch(/toUpperCase/)
})

test('a finished run is not thrown away by one Step too many; edits mark the run stale', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  const count = await page.getByTestId('timeline-item').count()
  await expect(page.getByTestId('step')).toBeDisabled()
  await page.keyboard.press('F10')
  await expect(page.getByTestId('timeline-item')).toHaveCount(count)
  await expect(page.getByTestId('stale-run')).toHaveCount(0)
  await page.getByTestId('protocol-select').selectOption('xml-tag')
  await expect(page.getByTestId('stale-run')).toBeVisible()
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stale-run')).toHaveCount(0)
  await expect(page.locator('[data-testid="timeline-item"][data-phase="start"]')).toContainText('xml-tag')
})

test('Run with broken code says why in the status bar; max steps shows an invalid value', async ({ page }) => {
  await openApp(page)
  await setEditor(page, 'model.ts', 'export default function model( {\n')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('run-blocked')).toContainText('model.ts:')
  const maxSteps = page.getByTestId('max-steps')
  await maxSteps.fill('0')
  await expect(maxSteps).toHaveAttribute('aria-invalid', 'true')
  await maxSteps.fill('3')
  await expect(maxSteps).toHaveAttribute('aria-invalid', 'false')
})
