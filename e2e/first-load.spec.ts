/**
 * The first load: the page frame paints in the user's language before the workbench chunk is in,
 * only the active language's translations are fetched for it, and the other languages are in the
 * browser after the first paint, so the language switch works with the network gone.
 */
import type { Route } from '@playwright/test'
import { expect, inMore, openApp, test } from './fixtures'

test('the frame paints in the saved language while the workbench loads, then the workbench replaces it', async ({ page }) => {
  await page.goto('/')
  await page.evaluate(() => localStorage.setItem('toolstep.language', 'zh-CN'))
  // Hold the workbench chunk back until the frame has been checked.
  const held: Route[] = []
  let released = false
  await page.route(/\/assets\/workbench-[\w-]+\.js$/, (route) => (released ? route.continue() : void held.push(route)))
  const scripts: string[] = []
  // Only the reloaded page's requests: the first load's idle prefetch of the other languages may
  // still be under way when the reload starts (it put en first in the list, failing the order).
  let reloaded = false
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) reloaded = true
  })
  page.on('request', (request) => {
    if (reloaded && request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
  })
  await page.reload()

  const frame = page.getByTestId('app-frame')
  await expect(frame).toBeVisible()
  await expect(frame.getByRole('status').first()).toHaveText('正在加载工作台…')
  await expect(frame).toContainText('编辑器')
  await expect(page.getByTestId('toolbar')).toHaveCount(0)
  // Simplified Chinese was fetched for the first paint, before any other language (those are
  // prefetched once the frame has painted, which may already have begun).
  const first = scripts.findIndex((path) => /\/assets\/zh-CN-[\w-]+\.js$/.test(path))
  expect(first).toBeGreaterThanOrEqual(0)
  const others = scripts.findIndex((path) => /\/assets\/(en|zh-TW)-[\w-]+\.js$/.test(path))
  if (others >= 0) expect(others, scripts.join(' ')).toBeGreaterThan(first)

  await expect.poll(() => held.length).toBeGreaterThan(0)
  released = true
  for (const route of held) await route.continue()
  await expect(page.getByTestId('toolbar')).toBeVisible()
  await expect(page.getByTestId('editor-tools').locator('.monaco-editor')).toBeVisible()
  await expect(frame).toHaveCount(0)
  await expect(page.getByTestId('view-loop')).toHaveText('循环')
})

test('the language switch works with the network gone, and the choice survives a reload', async ({ page, context }) => {
  await openApp(page)
  // The other languages arrive after the first paint.
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => /\/assets\/zh-(CN|TW)-[\w-]+\.js$/.test(e.name)).length))
    .toBeGreaterThanOrEqual(2)
  // …and zod's locales with them: nothing may still be on its way when the network goes.
  await page.waitForLoadState('networkidle')
  await context.setOffline(true)
  await (await inMore(page, 'lang-select')).selectOption('zh-TW')
  await expect(page.getByTestId('view-loop')).toHaveText('迴圈')
  await context.setOffline(false)
  await page.reload()
  await expect(page.getByTestId('view-loop')).toHaveText('迴圈')
  await expect(await inMore(page, 'lang-select')).toHaveValue('zh-TW')
})
