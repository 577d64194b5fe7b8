import { expect, openApp, test } from './fixtures'

test('the Parse lab lists every wire format with a description and a one-click example that parses', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('view-parse').click()
  // The Parse lab is its own chunk: wait for it before reading its options.
  await expect(page.getByTestId('parse-protocol-select')).toBeVisible()
  const ids = await page.getByTestId('parse-protocol-select').locator('option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))
  expect(ids.length).toBeGreaterThanOrEqual(15)
  for (const id of ids.filter((i) => i !== 'auto')) {
    await page.getByTestId(`load-example-${id}`).click()
    await expect(page.getByTestId('parse-protocol-select')).toHaveValue(id)
    await expect(page.getByTestId('parse-result').getByTestId('parsed-call').first()).toBeVisible()
    await expect(page.getByTestId('parse-result').getByTestId('parse-error')).toHaveCount(0)
  }
})

test('auto-detect says what it chose; broken output shows the repair or the error', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('view-parse').click()
  await page.getByTestId('parse-protocol-select').selectOption('auto')
  await page.getByTestId('parse-input').fill("<tool_call>\n{'name': 'set_alarm', 'arguments': {'time': '06:45', 'repeat': True,}}\n</tool_call>")
  await expect(page.getByTestId('parse-result')).toContainText('Detected:')
  await expect(page.getByTestId('parse-result').getByTestId('parsed-call')).toHaveAttribute('data-tool-name', 'set_alarm')
  await expect(page.getByTestId('repair').first()).toBeVisible()
  await page.getByTestId('parse-input').fill('{"tool": "save", "arguments": {"body": "cut off mid-str')
  await expect(page.getByTestId('parse-error').first()).toContainText('truncated')
  await expect(page.getByTestId('parse-result').getByTestId('parsed-call')).toHaveCount(0)
})

test('a stream ends with the same calls as the one-shot parse, whatever the chunk size', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('view-parse').click()
  for (const id of ['pythonic', 'harmony']) {
    await page.getByTestId(`load-example-${id}`).click()
    const expected = await page.getByTestId('parse-result').getByTestId('parsed-call').count()
    for (const chunk of ['1', '3', '64']) {
      await page.getByTestId('stream-chunk').fill(chunk)
      await page.getByTestId('stream-delay').fill('0')
      await page.getByTestId('stream-play').click()
      await expect(page.getByTestId('stream-status')).toHaveText('complete', { timeout: 30_000 })
      await expect(page.getByTestId('stream-call'), `${id} in chunks of ${chunk}`).toHaveCount(expected)
    }
  }
})

test('plays an output as a stream and shows the call forming, then complete', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('view-parse').click()
  await page.getByTestId('load-example-xml-tag').click()
  await page.getByTestId('stream-chunk').fill('2')
  await page.getByTestId('stream-delay').fill('120')
  await page.getByTestId('stream-play').click()
  await expect(page.getByTestId('stream-forming')).toBeVisible()
  await expect(page.getByTestId('stream-status')).toHaveText('complete', { timeout: 30_000 })
  await expect(page.getByTestId('stream-call')).toHaveCount(1)
  await expect(page.getByTestId('stream-call')).toContainText('get_weather')
})

test('a model turn from the loop opens in the Parse lab for re-parsing and streaming', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('protocol-select').selectOption('json')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  await page.locator('[data-testid="timeline-item"][data-phase="decide"]').first().click()
  await page.getByTestId('open-in-parse-lab').click()
  await expect(page.getByTestId('parse-protocol-select')).toHaveValue('json')
  await expect(page.getByTestId('parse-input')).toHaveValue(/"tool": "get_weather"/)
  await page.getByTestId('parse-protocol-select').selectOption('xml-tag')
  await expect(page.getByTestId('parse-result').getByTestId('parsed-call')).toHaveCount(0)
  await page.getByTestId('view-loop').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
})
