/**
 * Shared test fixture: every test fails on a page error or console error, and on any
 * request that leaves localhost (the app must work offline).
 */
import { test as base, expect, type Browser, type Locator, type Page } from '@playwright/test'

const LOCAL = /^(https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/|blob:|data:)/

/**
 * Chromium logs every failed fetch (a 401, a 429, a CORS refusal) as a console error. Those from
 * an endpoint the user configured on another local port are the behaviour under test, not app
 * errors; anything from the app's own origin still fails the test.
 */
function fromUserEndpoint(text: string, resourceUrl: string, pageUrl: string): boolean {
  const app = pageUrl ? new URL(pageUrl).origin : ''
  const other = (url: string) => LOCAL.test(url) && !url.startsWith(app)
  if (resourceUrl && other(resourceUrl) && text.startsWith('Failed to load resource')) return true
  const blocked = /^Access to fetch at '([^']+)' from origin '[^']+' has been blocked by CORS policy/.exec(text)
  return blocked !== null && other(blocked[1]!)
}

export const test = base.extend<{ localOnly: void }>({
  localOnly: [
    async ({ context, page }, use) => {
      const requests: string[] = []
      const errors: string[] = []
      context.on('request', (r) => requests.push(r.url()))
      await context.route((url) => !LOCAL.test(url.href), (route) => route.abort())
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
      page.on('console', (m) => {
        if (m.type() !== 'error' || fromUserEndpoint(m.text(), m.location().url, page.url())) return
        errors.push(`console: ${m.text()}`)
      })
      await use()
      expect(requests.filter((u) => !LOCAL.test(u)), 'requests that left localhost').toEqual([])
      expect(errors, 'page and console errors').toEqual([])
    },
    { auto: true, scope: 'test' },
  ],
})

export { expect }

/**
 * One page for several tests of a `test.describe.serial` group (loading the app once instead of
 * per test), with the guards the `localOnly` fixture gives a test's own page: `check()` fails on
 * a request that left localhost or a page or console error since the last check.
 */
export async function sharedPage(browser: Browser): Promise<{ page: Page; check(): void; close(): Promise<void> }> {
  const context = await browser.newContext()
  let requests: string[] = []
  let errors: string[] = []
  context.on('request', (r) => requests.push(r.url()))
  await context.route((url) => !LOCAL.test(url.href), (route) => route.abort())
  const page = await context.newPage()
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
  page.on('console', (m) => {
    if (m.type() !== 'error' || fromUserEndpoint(m.text(), m.location().url, page.url())) return
    errors.push(`console: ${m.text()}`)
  })
  return {
    page,
    check() {
      const left = requests.filter((u) => !LOCAL.test(u))
      const seen = errors
      requests = []
      errors = []
      expect(left, 'requests that left localhost').toEqual([])
      expect(seen, 'page and console errors').toEqual([])
    },
    close: () => context.close(),
  }
}

/**
 * Opens the app and waits for both editors. Each test has a new browser context, so
 * localStorage is already empty: one load, as a first visit.
 */
export async function openApp(page: Page): Promise<void> {
  await page.goto('/')
  await expect(page.getByTestId('editor-tools').locator('.monaco-editor')).toBeVisible()
  await expect(page.getByTestId('editor-model').locator('.monaco-editor')).toBeVisible()
}

/** Replaces a file's content through Monaco's model API (typing would be auto-indented). */
export async function setEditor(page: Page, file: 'tools.ts' | 'model.ts', text: string): Promise<void> {
  await page.evaluate(
    ([path, value]) => {
      const monaco = window.__monaco!
      const model = monaco.editor.getModel(monaco.Uri.parse(`file:///${path}`))
      if (!model) throw new Error(`no model for ${path}`)
      model.setValue(value)
    },
    [file, text] as const,
  )
}

export async function getEditor(page: Page, file: 'tools.ts' | 'model.ts'): Promise<string> {
  return page.evaluate((path) => {
    const monaco = window.__monaco!
    return monaco.editor.getModel(monaco.Uri.parse(`file:///${path}`))!.getValue()
  }, file)
}

/** The timeline's rows as "phase: title — detail" strings. */
export async function timelineRows(page: Page): Promise<string[]> {
  return page.getByTestId('timeline-item').evaluateAll((rows) =>
    rows.map((r) => `${r.getAttribute('data-phase')}: ${(r as HTMLElement).innerText.replace(/\s+/g, ' ').trim()}`),
  )
}

/**
 * A control of the toolbar's More menu (import, keyboard shortcuts; Max steps on a narrow screen;
 * the editors switch in presenter mode), with the menu opened first when it is closed. The
 * teaching controls and the language switch are never in it: they are in the row at every width.
 */
export async function inMore(page: Page, testId: string): Promise<Locator> {
  // A control that has room in the toolbar's row (Max steps on a wide screen) is there.
  const control = page.getByTestId(testId)
  if (await control.isVisible()) return control
  if (!(await page.getByTestId('toolbar-more-menu').isVisible())) await page.getByTestId('toolbar-more').click()
  await expect(page.getByTestId('toolbar-more-menu')).toBeVisible()
  return page.getByTestId(testId)
}
