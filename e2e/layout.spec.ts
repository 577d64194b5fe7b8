import path from 'node:path'
import type { Page } from '@playwright/test'
import { expect, inMore, openApp, test } from './fixtures'

const fixtures = path.join(import.meta.dirname, '..', 'src', 'core', '__fixtures__')

test('panes: dividers are draggable separators naming their pane; sizes survive a reload; double-click collapses', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await openApp(page)
  const dividers = page.getByTestId('pane-divider')
  await expect(dividers).toHaveCount(3)
  for (const divider of await dividers.all()) {
    await expect(divider).toHaveAttribute('role', 'separator')
    const controls = await divider.getAttribute('aria-controls')
    expect(controls).toBeTruthy()
    await expect(page.locator(`[id="${controls}"]`)).toHaveCount(1)
  }
  // The divider between the editors and the run (the one inside the editors comes first in the page).
  const main = page.locator('[data-testid="pane-divider"][aria-controls="pane-editors"]')
  await expect(main).toHaveCount(1)
  const editors = page.locator('#pane-editors')
  const before = (await editors.boundingBox())!.width
  const handle = (await main.boundingBox())!
  await page.mouse.move(handle.x + handle.width / 2, handle.y + 200)
  await page.mouse.down()
  await page.mouse.move(handle.x + 200, handle.y + 200, { steps: 8 })
  await page.mouse.up()
  await expect.poll(async () => (await editors.boundingBox())!.width).toBeGreaterThan(before + 150)
  const widened = (await editors.boundingBox())!.width

  await page.reload()
  await expect(page.getByTestId('editor-tools').locator('.monaco-editor')).toBeVisible()
  await expect.poll(async () => Math.round((await page.locator('#pane-editors').boundingBox())!.width)).toBeGreaterThan(widened - 10)

  // Double-click the divider: the editors fold away and the run gets the room; again brings them back.
  await page.locator('[data-testid="pane-divider"][aria-controls="pane-editors"]').dblclick()
  await expect.poll(async () => (await page.locator('#pane-editors').boundingBox())?.width ?? 0).toBeLessThan(2)
  await expect(page.getByTestId('pane-toggle-editors')).toHaveAttribute('aria-expanded', 'false')
  await page.getByTestId('pane-toggle-editors').click()
  await expect.poll(async () => (await page.locator('#pane-editors').boundingBox())!.width).toBeGreaterThan(200)
  await expect(page.getByTestId('pane-toggle-editors')).toHaveAttribute('aria-expanded', 'true')
})

test('panes: the editors can be tabs in one pane; a replay collapses them and a fork brings them back', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('editor-layout').click()
  await expect(page.getByTestId('editor-tools')).toBeVisible()
  await expect(page.getByTestId('editor-model')).toBeHidden()
  await page.getByTestId('editor-tab-model').click()
  await expect(page.getByTestId('editor-model')).toBeVisible()
  await expect(page.getByTestId('editor-tools')).toBeHidden()
  await page.getByTestId('editor-layout').click()
  await expect(page.getByTestId('editor-tools')).toBeVisible()
  await expect(page.getByTestId('editor-model')).toBeVisible()

  await page.getByTestId('import-file').setInputFiles(path.join(fixtures, 'tau-bench-gpt-4o-airline.json'))
  await expect(page.getByTestId('conversation-select')).toBeVisible()
  await expect(page.getByTestId('pane-toggle-editors')).toHaveAttribute('aria-expanded', 'false')
  await expect.poll(async () => (await page.locator('#pane-editors').boundingBox())?.width ?? 0).toBeLessThan(2)
  // The inspector gets the width: wider than the ~180 px columns it had.
  expect((await page.locator('#pane-inspector').boundingBox())!.width).toBeGreaterThan(500)
  await page.locator('[data-testid="timeline-item"][data-phase="decide"]').first().click()
  await page.getByTestId('fork-here').click()
  await expect(page.getByTestId('pane-toggle-editors')).toHaveAttribute('aria-expanded', 'true')
})

const LABELS = { en: ['Example', 'Wire format'], 'zh-CN': ['示例', '传输格式'] } as const

/** Test ids outside checks use directly: in the toolbar's row at every width, never in a menu. */
const ROW_CONTRACT = ['lessons-toggle', 'presenter-toggle', 'font-size', 'share-link', 'lang-select']

/**
 * The toolbar's shown controls lie inside the window, none overlaps another, and none is cut
 * (its content fits its box, or its whole text shows on hover).
 */
async function expectRowClean(page: Page, windowWidth: number): Promise<void> {
  const boxes = await page.getByTestId('toolbar').evaluate((bar) =>
    [...bar.querySelectorAll<HTMLElement>('button, select, summary, input:not([type="file"])')]
      .filter((el) => el.checkVisibility() && !el.closest('[popover]'))
      .map((el) => {
        const box = el.getBoundingClientRect()
        const cut = el.scrollWidth > el.clientWidth + 1 && !(el instanceof HTMLSelectElement && el.title.startsWith(el.selectedOptions[0]?.text ?? '\u0000'))
        return { id: el.dataset['testid'] ?? el.getAttribute('aria-label') ?? el.textContent ?? '', left: box.left, right: box.right, top: box.top, bottom: box.bottom, cut }
      }),
  )
  for (const box of boxes) {
    expect(box.left, `${box.id} inside the window`).toBeGreaterThanOrEqual(0)
    expect(box.right, `${box.id} inside the window`).toBeLessThanOrEqual(windowWidth)
    expect(box.cut, `${box.id} cut off`).toBe(false)
  }
  const overlaps = boxes.flatMap((a, i) => boxes.slice(i + 1).filter((b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5).map((b) => `${a.id} × ${b.id}`))
  expect(overlaps, 'toolbar controls overlapping').toEqual([])
}

/** Texts of the status bar that end past its right edge (the final answer, squeezed to nothing, pushed its label out). */
async function statusBarSpill(page: Page): Promise<string[]> {
  return page.getByTestId('status-bar').evaluate((bar) => {
    const right = bar.getBoundingClientRect().right
    return [...bar.querySelectorAll('span')].filter((el) => el.getBoundingClientRect().right > right + 0.5).map((el) => el.textContent ?? '')
  })
}

test('presenter mode at 150 % beside the Lessons panel: the status bar keeps the final answer and its label inside its edge', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await openApp(page)
  await page.getByTestId('lessons-toggle').click()
  await page.locator('[data-testid="lesson-item"][data-lesson-id="parallel-calls"]').click()
  await page.getByTestId('presenter-toggle').click()
  await page.getByTestId('font-size').selectOption('150')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  await expect(page.getByTestId('final-answer')).toBeAttached()
  expect(await statusBarSpill(page), 'status bar text past its edge').toEqual([])
})

for (const [width, height, zoom] of [
  [1280, 720, 1],
  [1920, 1080, 1],
  [1280, 720, 1.5],
  [1920, 1080, 1.5],
] as const) for (const lang of ['en', 'zh-CN'] as const) {
  test(`nothing is cut off at ${width}×${height}, ${zoom * 100} %, ${lang}; the toolbar is one row`, async ({ browser }) => {
    // Browser zoom shrinks the CSS viewport by the zoom factor and scales device pixels up.
    const context = await browser.newContext({ viewport: { width: Math.round(width / zoom), height: Math.round(height / zoom) }, deviceScaleFactor: zoom })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await openApp(page)
    if (lang !== 'en') await page.getByTestId('lang-select').selectOption(lang)
    // One row: every control of the toolbar sits on the same line, and the bar is no taller than one.
    const toolbar = (await page.getByTestId('toolbar').boundingBox())!
    const run = (await page.getByTestId('run').boundingBox())!
    expect(toolbar.height, 'toolbar height').toBeLessThan(run.height * 2)
    const rows = await page.getByTestId('toolbar').evaluate((bar) =>
      // What is shown: not a closed menu's items (More's popover, Export's <details>).
      [...bar.querySelectorAll('button, select, input')].filter((el) => el.checkVisibility()).map((el) => {
        const box = el.getBoundingClientRect()
        return { id: (el as HTMLElement).dataset['testid'] ?? el.textContent, middle: box.top + box.height / 2, right: box.right }
      }),
    )
    const middles = rows.map((r) => r.middle)
    expect(Math.max(...middles) - Math.min(...middles), JSON.stringify(rows)).toBeLessThan(4)
    expect(Math.max(...rows.map((r) => r.right)), 'toolbar inside the window').toBeLessThanOrEqual(Math.round(width / zoom))
    await expectRowClean(page, Math.round(width / zoom))
    // The teaching controls and the language switch are in the row, with no menu to open.
    for (const id of ROW_CONTRACT) await expect(page.getByTestId(id), id).toBeVisible()
    // The controls that moved into More are reachable there.
    await inMore(page, 'import-button')
    for (const id of ['import-button', 'open-shortcuts']) await expect(page.getByTestId(id), id).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('toolbar-more-menu')).toBeHidden()
    await page.getByTestId('run').click()
    await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
    expect(await statusBarSpill(page), 'status bar text past its edge').toEqual([])
    // The timeline keeps a usable height under the narration and diagram (on a short screen the diagram starts folded).
    expect((await page.locator('#pane-timeline').boundingBox())!.height, 'timeline height').toBeGreaterThanOrEqual(180)
    // Phase badges (VALIDATE, BACKFILL, EXECUTE) fit their box.
    const badges = await page.getByTestId('timeline-item').evaluateAll((rows) =>
      rows.map((row) => {
        const badge = row.children[1] as HTMLElement
        return { text: badge.innerText, fits: badge.scrollWidth <= badge.clientWidth }
      }),
    )
    expect(badges.filter((b) => !b.fits)).toEqual([])
    // Timeline titles cut with an ellipsis show in full on hover.
    const titles = await page.getByTestId('timeline-item').evaluateAll((rows) => rows.map((row) => row.querySelector('[title]')?.getAttribute('title') ?? ''))
    expect(titles.some((t) => t.includes('get_weather'))).toBe(true)
    // The pickers keep their labels while the row has room (a compact row names them by
    // aria-label), and show the selected option in full or on hover.
    for (const [id, label] of [
      ['example-select', LABELS[lang][0]],
      ['protocol-select', LABELS[lang][1]],
    ] as const) {
      const select = page.getByTestId(id)
      await expect(select).toHaveAttribute('aria-label', label)
      if (zoom === 1) await expect(page.locator('label', { has: select }).getByText(label, { exact: true })).toBeVisible()
      const cut = await select.evaluate((el) => {
        const s = el as HTMLSelectElement
        const canvas = document.createElement('canvas').getContext('2d')!
        canvas.font = getComputedStyle(s).font
        return canvas.measureText(s.selectedOptions[0]!.text).width > s.clientWidth - 8 && !s.title.startsWith(s.selectedOptions[0]!.text)
      })
      expect(cut, `${id} cut without its full text on hover`).toBe(false)
    }
    expect(errors).toEqual([])
    await context.close()
  })
}

test('toasts never cover the timeline or inspector; errors stay until dismissed', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('import-file').setInputFiles({ name: 'junk.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": 1}') })
  const toast = page.getByTestId('toast')
  await expect(toast).toHaveAttribute('data-kind', 'error')
  const box = (await toast.boundingBox())!
  for (const pane of ['#pane-timeline', '#pane-inspector', '#pane-editors']) {
    const other = (await page.locator(pane).boundingBox())!
    const overlaps = box.x < other.x + other.width && other.x < box.x + box.width && box.y < other.y + other.height && other.y < box.y + box.height
    expect(overlaps, `toast over ${pane}`).toBe(false)
  }
  // An error does not fade by itself.
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  await expect(toast).toBeVisible()
  await toast.getByRole('button', { name: 'Dismiss' }).click()
  await expect(toast).toHaveCount(0)
})

test("Monaco's context menu has a background", async ({ page }) => {
  await openApp(page)
  // The editor's visible area (its overflow guard), not the lines' box, which can reach past it.
  const visible = page.getByTestId('editor-tools').locator('.monaco-editor .overflow-guard')
  await expect(visible).toBeVisible()
  await visible.click({ button: 'right', position: { x: 80, y: 40 } })
  const background = await page.waitForFunction(() => {
    // Monaco makes one shadow root per widget host; the menu is in one of them (or in the page).
    const roots: (Document | ShadowRoot)[] = [document, ...[...document.querySelectorAll('.shadow-root-host')].flatMap((h) => (h.shadowRoot ? [h.shadowRoot] : []))]
    // The menu's list sits inside a scrollable element, which is what paints the background.
    const menu = roots.map((r) => r.querySelector('.monaco-menu')?.closest('.monaco-scrollable-element') ?? null).find((m) => m !== null)
    return menu ? getComputedStyle(menu).backgroundColor : null
  })
  expect(await background.jsonValue()).not.toBe('rgba(0, 0, 0, 0)')
})

test('the More menu works from the keyboard: Enter opens it on its first item, arrows move, Esc closes it back onto its button', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('toolbar-more').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('toolbar-more-menu')).toBeVisible()
  await expect(page.getByTestId('import-button')).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByTestId('open-shortcuts')).toBeFocused()
  await page.keyboard.press('ArrowUp')
  await expect(page.getByTestId('import-button')).toBeFocused()
  // Wraps round to the last control (Max steps is in the row at this width).
  await page.keyboard.press('ArrowUp')
  await expect(page.getByTestId('open-shortcuts')).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('toolbar-more-menu')).toBeHidden()
  await expect(page.getByTestId('toolbar-more')).toBeFocused()

  await page.keyboard.press('Enter')
  await expect(page.getByTestId('import-button')).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  // The shortcuts opened, and the menu closed for them.
  await expect(page.getByTestId('shortcuts-help')).toBeVisible()
  await expect(page.getByTestId('toolbar-more-menu')).toBeHidden()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('shortcuts-help')).toBeHidden()
})

test('the teaching controls in the row work from the keyboard, named for screen readers', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await openApp(page)
  // Icons at this width: each is named by aria-label and on hover.
  for (const [id, name] of [['lessons-toggle', 'Lessons'], ['presenter-toggle', 'Presenter'], ['share-link', 'Share link']] as const) {
    await expect(page.getByTestId(id)).toHaveAccessibleName(name)
    expect(await page.getByTestId(id).getAttribute('title'), id).toBeTruthy()
  }
  await expect(page.getByTestId('font-size')).toHaveAccessibleName('Text size')
  await page.getByTestId('lessons-toggle').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('lessons')).toBeVisible()
  await expect(page.getByTestId('lessons-toggle')).toHaveAttribute('aria-pressed', 'true')
  // Tab walks the row: presenter mode, then the text size.
  await page.getByTestId('lessons-toggle').focus()
  await page.keyboard.press('Tab')
  await expect(page.getByTestId('presenter-toggle')).toBeFocused()
  await page.keyboard.press('Space')
  await expect(page.getByTestId('presenter-toggle')).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByTestId('editor-tools')).toBeHidden()
  // In presenter mode Space steps, but not from a focused button: there it presses the button.
  await page.keyboard.press('Space')
  await expect(page.getByTestId('presenter-toggle')).toHaveAttribute('aria-pressed', 'false')
  await expect(page.getByTestId('timeline-item')).toHaveCount(0)
  await page.keyboard.press('Space')
  await expect(page.getByTestId('presenter-toggle')).toHaveAttribute('aria-pressed', 'true')
  await page.keyboard.press('Tab')
  await expect(page.getByTestId('font-size')).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.getByTestId('share-link')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('share-url')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('share-url')).toBeHidden()
})

test('at 1280×720 with 200 % text the row may wrap, but no control is cut off, overlapped or off screen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await openApp(page)
  await page.getByTestId('font-size').selectOption('200')
  await expect(page.locator('html')).toHaveAttribute('style', /font-size: 200%/)
  for (const id of ['run', 'step', 'step-back', 'reset', 'export-menu', 'toolbar-more', ...ROW_CONTRACT]) await expect(page.getByTestId(id), id).toBeVisible()
  await expectRowClean(page, 1280)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
  // The toolbar leaves most of the screen to the workbench.
  expect((await page.getByTestId('toolbar').boundingBox())!.height).toBeLessThan(720 / 3)
  // The empty timeline's text starts inside its pane (it scrolls there), not over the view switch above.
  expect(await page.getByTestId('timeline').evaluate((el) => el.firstElementChild!.getBoundingClientRect().top >= el.getBoundingClientRect().top - 1)).toBe(true)
  await page.getByTestId('lang-select').selectOption('zh-CN')
  await expectRowClean(page, 1280)
  await page.screenshot({ path: 'test-results/layout-1280x720-text-200-zh-CN.png' })
})

test('a narrow timeline drops the event numbers for the titles; long titles show in full on hover', async ({ page }) => {
  await page.setViewportSize({ width: 853, height: 480 })
  await openApp(page)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  const titles = await page.getByTestId('timeline-item').evaluateAll((rows) =>
    rows.map((row) => {
      const title = row.querySelector('[title]') as HTMLElement
      return { width: title.clientWidth, full: title.getAttribute('title') === title.innerText || title.scrollWidth > title.clientWidth }
    }),
  )
  // Room for a readable start of each title (not "D…"), and the whole title on hover.
  expect(Math.min(...titles.map((t) => t.width))).toBeGreaterThanOrEqual(60)
  expect(titles.every((t) => t.full)).toBe(true)
})

test('on a narrow screen Max steps is in More, and a refused value is said there, in view', async ({ page }) => {
  await page.setViewportSize({ width: 853, height: 480 })
  await openApp(page)
  const field = await inMore(page, 'max-steps')
  await expect(field).toBeVisible()
  await field.fill('0')
  const error = page.getByTestId('max-steps-error')
  await expect(error).toContainText('from 1 to 100')
  const box = (await error.boundingBox())!
  expect(box.x + box.width).toBeLessThanOrEqual(853)
  expect(box.y + box.height).toBeLessThanOrEqual(480)
  await field.fill('12')
  await expect(error).toHaveCount(0)
  await page.keyboard.press('Escape')
  await page.reload()
  await expect(await inMore(page, 'max-steps')).toHaveValue('12')
})
