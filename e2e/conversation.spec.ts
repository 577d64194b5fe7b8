import path from 'node:path'
import { expect, openApp, test } from './fixtures'

const fixtures = path.join(import.meta.dirname, '..', 'src', 'core', '__fixtures__')

test('conversation view: one card per message, raw beside parsed, calls linked to verdicts and results', async ({ page }) => {
  await openApp(page)
  const view = page.getByTestId('timeline-view')
  await expect(view).toHaveAttribute('data-value', 'phases')
  await view.getByText('Conversation').click()
  await expect(view).toHaveAttribute('data-value', 'conversation')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  const cards = page.getByTestId('message-card')
  await expect.poll(() => cards.evaluateAll((c) => c.map((x) => x.getAttribute('data-role')).join(' '))).toBe('user assistant tool assistant tool assistant')
  const first = cards.nth(1)
  await first.locator('header').click()
  await expect(first).toHaveAttribute('aria-current', 'step')
  const name = await first.getByTestId('card-call').first().getAttribute('data-tool-name')
  await expect(first.getByTestId('card-raw').locator('mark[data-kind="name"]').first()).toHaveText(name!)
  await expect(first.getByTestId('card-parsed')).toContainText(name!)
  await expect(first.getByTestId('card-verdict').first()).toHaveAttribute('data-ok', 'true')
  // The call links to its tool-result card.
  await first.getByTestId('card-result-link').first().click()
  await expect(cards.nth(2)).toHaveAttribute('aria-current', 'step')
  await expect(cards.nth(2)).toContainText(name!)

  // Step / Back move the same cursor: the current card follows.
  const current = page.locator('[data-testid="message-card"][aria-current="step"]')
  await page.getByTestId('step-back').click()
  await page.getByTestId('step-back').click()
  await expect(current).toHaveAttribute('data-role', 'assistant')
  // At the cursor k the cards are the fold of events 0..k: the tool result is not there yet.
  await expect(page.locator('[data-testid="message-card"]:not([data-future])')).toHaveCount(2)
  await page.getByTestId('step').click()
  await expect(current).toHaveAttribute('data-role', 'tool')
  await expect(page.locator('[data-testid="message-card"]:not([data-future])')).toHaveCount(3)

  // The choice is remembered.
  await page.reload()
  await expect(page.getByTestId('timeline-view')).toHaveAttribute('data-value', 'conversation')
})

test('conversation view of a replayed tau-bench conversation: raw beside parsed for every assistant message, anomalies inline', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('timeline-view').getByText('Conversation').click()
  await page.getByTestId('import-file').setInputFiles(path.join(fixtures, 'tau-bench-gpt-4o-airline.json'))
  await expect(page.getByTestId('conversation-select')).toBeVisible()
  await page.getByTestId('conversation-select').selectOption('3')
  await page.getByTestId('run').click()
  const cards = page.getByTestId('message-card')
  await expect(cards.first()).toBeVisible()
  // Virtualised: walk the cards from top to bottom and check each assistant card as it shows.
  const list = page.getByTestId('conversation')
  await list.evaluate((el) => el.scrollTo(0, 0))
  const seen = new Set<string>()
  let anomalies = 0
  for (let i = 0; i < 200; i++) {
    // One snapshot per scroll position: the virtualiser may drop a card between two locator calls.
    const shown = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="message-card"][data-role="assistant"]')].map((card) => ({
        seq: card.getAttribute('data-seq'),
        raw: card.querySelectorAll('[data-testid="card-raw"]').length,
        parsed: card.querySelectorAll('[data-testid="card-parsed"]').length,
      })),
    )
    for (const card of shown) {
      if (card.seq === null || seen.has(card.seq)) continue
      seen.add(card.seq)
      expect(card, `assistant card ${card.seq}`).toMatchObject({ raw: 1, parsed: 1 })
    }
    anomalies += await page.locator('[data-testid="card-anomaly"][data-code="duplicate_tool_call_id"]').count()
    const atEnd = await list.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2)
    if (atEnd) break
    await list.evaluate((el) => el.scrollBy(0, el.clientHeight * 0.8))
  }
  expect(seen.size).toBeGreaterThan(5)
  expect(anomalies).toBeGreaterThan(0)
})
