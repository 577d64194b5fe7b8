import { test, expect, openApp, getEditor, setEditor, inMore, sharedPage } from './fixtures'

const LOCAL = /^(https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/|blob:|data:)/
const shot = (name: string) => `test-results/teach-${name}.png`

test('the lesson path in 简体中文: lesson text, narration and the lit diagram', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('lang-select').selectOption('zh-CN')
  await page.getByTestId('lessons-toggle').click()
  const panel = page.getByTestId('lessons')
  await expect(panel).toContainText('课程')
  await expect(panel.getByTestId('lesson-item')).toHaveCount(29)
  await panel.locator('[data-testid="lesson-item"][data-lesson-id="registry-tags"]').click()
  await expect(page.getByTestId('lesson-text')).toContainText('注册表与 <tool> 标签')
  await expect(page.getByTestId('narration')).toContainText('运行或单步执行')

  // Step through the first phases: each has its narration and lights its node.
  await page.getByTestId('step').click()
  await expect(page.getByTestId('narration')).toContainText('运行开始')
  await expect(page.locator('[data-testid="diagram-node"][aria-current="step"]')).toHaveAttribute('data-phase', 'start')
  await page.getByTestId('step').click()
  await expect(page.locator('[data-testid="diagram-node"][aria-current="step"]')).toHaveAttribute('data-phase', 'decide')
  await expect(page.getByTestId('narration')).toContainText('第 1 轮')

  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
  await expect(page.getByTestId('narration')).toContainText('循环停止了，因为模型没有调用工具而是直接作答')
  await expect(page.locator('[data-testid="diagram-node"][aria-current="step"]')).toHaveAttribute('data-phase', 'stop')
  await expect(page.locator('[data-testid="diagram-edge"][data-edge="decide>parse"]')).toHaveAttribute('data-count', '3')

  // A click on a node moves the cursor to the next event of that phase.
  await page.locator('[data-testid="diagram-node"][data-phase="execute"]').click()
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'execute')
  await expect(page.getByTestId('narration')).toContainText('get_weather')
  await page.screenshot({ path: shot('zh-CN-lesson'), fullPage: false })

  // Walk on to the confirmation state machine: the path's order, and the lesson's own workspace.
  await panel.locator('[data-testid="lesson-item"][data-lesson-id="confirmation"]').click()
  await expect(page.getByTestId('lesson-text')).toContainText('AWAITING_CONFIRMATION')
  expect(await getEditor(page, 'tools.ts')).toContain('delete_file')
})

test('a challenge: the starting code fails the check, Show solution passes it, progress is kept', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('lessons-toggle').click()
  await page.locator('[data-testid="lesson-item"][data-lesson-id="fail-endless-loop"]').click()
  await page.getByTestId('challenge-check').click()
  await expect(page.getByTestId('challenge-result')).toHaveAttribute('data-passed', 'false')
  await expect(page.getByTestId('challenge-result')).toContainText('press Run first')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('max_steps')
  await page.getByTestId('challenge-check').click()
  await expect(page.getByTestId('challenge-result')).toHaveAttribute('data-passed', 'false')
  await expect(page.getByTestId('challenge-result')).toContainText('it stopped with max_steps, not repeated_call')
  await page.getByTestId('challenge-solution').click()
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('repeated_call')
  await page.getByTestId('challenge-check').click()
  await expect(page.getByTestId('challenge-result')).toHaveAttribute('data-passed', 'true')
  await page.reload()
  await page.getByTestId('lessons-toggle').click()
  await expect(page.locator('[data-testid="lesson-item"][data-lesson-id="fail-endless-loop"]')).toContainText('✓')
})

test('the eval-metrics challenge: the model’s city bug fails the case’s argument check, Show solution passes it', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('lessons-toggle').click()
  await page.locator('[data-testid="lesson-item"][data-lesson-id="eval-metrics"]').click()
  await expect(page.getByTestId('lesson-text')).toContainText('argument accuracy reach 100 %')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
  await page.getByTestId('challenge-check').click()
  await expect(page.getByTestId('challenge-result')).toHaveAttribute('data-passed', 'false')
  await expect(page.getByTestId('challenge-result')).toContainText('case weather-lyon: tool-args-match expected {"tool":"get_weather","arguments":{"city":"Lyon"}}, got [{"city":"today"}]')
  await page.getByTestId('challenge-solution').click()
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
  await page.getByTestId('challenge-check').click()
  await expect(page.getByTestId('challenge-result')).toHaveAttribute('data-passed', 'true')
})

test('a share link opens the same lesson in a fresh browser, runs nothing and says where it came from', async ({ page, browser }) => {
  await openApp(page)
  await page.getByTestId('lessons-toggle').click()
  await page.locator('[data-testid="lesson-item"][data-lesson-id="fail-timeout"]').click()
  await page.getByTestId('share-link').click()
  const url = await page.getByTestId('share-url').inputValue()
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#share=[A-Za-z0-9_-]+$/)
  const model = await getEditor(page, 'model.ts')

  const learner = await browser.newContext({ viewport: { width: 1280, height: 720 } })
  const requests: string[] = []
  learner.on('request', (r) => requests.push(r.url()))
  await learner.route((u) => !LOCAL.test(u.href), (r) => r.abort())
  const other = await learner.newPage()
  await other.goto(url)
  await expect(other.getByTestId('link-notice')).toBeVisible()
  await expect(other.getByTestId('lessons')).toBeVisible()
  await expect(other.locator('[data-testid="lesson-item"][data-lesson-id="fail-timeout"]')).toHaveAttribute('aria-current', 'true')
  await expect(other.getByTestId('editor-model').locator('.monaco-editor')).toBeVisible()
  expect(await getEditor(other, 'model.ts')).toBe(model)
  await expect(other.getByTestId('timeline-item')).toHaveCount(0)
  expect(new URL(other.url()).hash).toBe('')
  await other.screenshot({ path: shot('share-opened') })

  // Over the learner's own work, the link asks before replacing it.
  await other.evaluate(() => {
    const monaco = window.__monaco!
    monaco.editor.getModel(monaco.Uri.parse('file:///model.ts'))!.setValue('export default () => "mine"')
  })
  await other.goto(url)
  await expect(other.getByTestId('link-ask')).toBeVisible()
  await other.getByTestId('link-keep').click()
  await expect(other.getByTestId('editor-model').locator('.monaco-editor')).toBeVisible()
  expect(await getEditor(other, 'model.ts')).toBe('export default () => "mine"')
  expect(requests.filter((u) => !LOCAL.test(u))).toEqual([])
  await learner.close()
})

test('presenter mode at 150 % on 1280×720: nothing cut off, Space and arrows step, narration in large type', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await openApp(page)
  await page.getByTestId('lessons-toggle').click()
  await page.locator('[data-testid="lesson-item"][data-lesson-id="parallel-calls"]').click()
  await page.getByTestId('presenter-toggle').click()
  await page.getByTestId('font-size').selectOption('150')
  await expect(page.locator('html')).toHaveAttribute('style', /font-size: 150%/)
  await expect(page.getByTestId('editor-tools')).toBeHidden()

  await page.locator('body').click({ position: { x: 5, y: 700 } })
  await page.keyboard.press('Space')
  await expect(page.getByTestId('timeline-item')).toHaveCount(1)
  await page.keyboard.press('ArrowRight')
  await expect(page.getByTestId('timeline-item')).toHaveCount(2)
  await page.keyboard.press('ArrowRight')
  await expect(page.getByTestId('timeline-item')).toHaveCount(3)
  await page.keyboard.press('ArrowLeft')
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'decide')
  const size = await page.getByTestId('narration').evaluate((el) => parseFloat(getComputedStyle(el).fontSize))
  expect(size).toBeGreaterThanOrEqual(30)

  // Nothing wider than the screen, and every control of the toolbar, the narration and the diagram inside it.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
  const inside = async (ids: string[]) => {
    for (const id of ids) {
      const box = await page.getByTestId(id).boundingBox()
      expect(box, id).not.toBeNull()
      expect(box!.x, id).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width, id).toBeLessThanOrEqual(1280)
      expect(box!.y + box!.height, id).toBeLessThanOrEqual(720)
    }
  }
  await inside(['run', 'step', 'step-back', 'toolbar-more', 'narration', 'loop-diagram'])
  // The toolbar is one row, and the timeline keeps a usable height under the narration and diagram.
  expect((await page.getByTestId('toolbar').boundingBox())!.height).toBeLessThan(80)
  expect((await page.locator('#pane-timeline').boundingBox())!.height).toBeGreaterThanOrEqual(200)
  // Folding the diagram away gives the timeline more room.
  const before = (await page.locator('#pane-timeline').boundingBox())!.height
  await page.getByTestId('diagram-toggle').click()
  await expect(page.getByTestId('diagram-toggle')).toHaveAttribute('aria-expanded', 'false')
  await expect(page.getByTestId('loop-diagram')).toHaveCount(0)
  await expect.poll(async () => (await page.locator('#pane-timeline').boundingBox())!.height).toBeGreaterThan(before + 40)
  await page.getByTestId('diagram-toggle').click()
  await expect(page.getByTestId('loop-diagram')).toBeVisible()
  // The teaching controls and the language switch are in the row at 150 % too, no menu to open.
  await inside(['lessons-toggle', 'presenter-toggle', 'font-size', 'share-link', 'lang-select', 'export-menu'])
  await page.screenshot({ path: shot('presenter-150') })
  await page.getByTestId('lang-select').selectOption('zh-TW')
  await expect(page.getByTestId('narration')).toContainText('模型')
  await page.screenshot({ path: shot('presenter-150-zh-TW') })
})

test('Space and → pressed at once after opening a lesson both step: the second waits for the code to load', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('lessons-toggle').click()
  await page.locator('[data-testid="lesson-item"][data-lesson-id="parallel-calls"]').click()
  await page.getByTestId('presenter-toggle').click()
  await page.locator('body').click({ position: { x: 5, y: 700 } })
  // Both keys in one go: the second arrives while the first one's sandbox is still starting.
  await page.evaluate(() => {
    for (const key of [' ', 'ArrowRight']) window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
  })
  await expect(page.getByTestId('timeline-item')).toHaveCount(2)
  await expect(page.locator('[data-testid="timeline-item"][aria-current="step"]')).toHaveAttribute('data-phase', 'decide')
  // A lesson opened while its code loads cancels the key that waited.
  await page.locator('[data-testid="lesson-item"][data-lesson-id="registry-tags"]').click()
  await page.evaluate(() => {
    window.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true, cancelable: true }))
    window.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true, cancelable: true }))
    document.querySelector<HTMLElement>('[data-testid="lesson-item"][data-lesson-id="typed-schema"]')!.click()
  })
  await expect(page.locator('[data-testid="lesson-item"][data-lesson-id="typed-schema"]')).toHaveAttribute('aria-current', 'true')
  await expect(page.getByTestId('status-bar')).not.toContainText('Loading')
  await expect(page.getByTestId('timeline-item')).toHaveCount(0)
})

test('keyboard only in presenter mode: a lesson chosen with Enter is then stepped with Space, and Next does not skip a lesson', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('lessons-toggle').click()
  await page.getByTestId('presenter-toggle').click()
  await page.locator('[data-testid="lesson-item"][data-lesson-id="typed-schema"]').focus()
  await page.keyboard.press('Enter')
  await expect(page.locator('[data-testid="lesson-item"][data-lesson-id="typed-schema"]')).toHaveAttribute('aria-current', 'true')
  // Space steps the lesson; it no longer presses the lesson's button again (which reopened it).
  await page.keyboard.press('Space')
  await expect(page.getByTestId('timeline-item')).toHaveCount(1)
  await page.keyboard.press('Space')
  await expect(page.getByTestId('timeline-item')).toHaveCount(2)
  await page.getByTestId('lesson-next').focus()
  await page.keyboard.press('Enter')
  await expect(page.locator('[data-testid="lesson-item"][data-lesson-id="agent-loop"]')).toHaveAttribute('aria-current', 'true')
  await page.keyboard.press('Space')
  await expect(page.getByTestId('timeline-item')).toHaveCount(1)
  await expect(page.locator('[data-testid="lesson-item"][data-lesson-id="agent-loop"]')).toHaveAttribute('aria-current', 'true')
})

test('in presenter mode, → and ← step even while the text-size menu still has focus; ↑ / ↓ still change the size', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('lessons-toggle').click()
  await page.getByTestId('presenter-toggle').click()
  await page.locator('[data-testid="lesson-item"][data-lesson-id="typed-schema"]').click()
  await page.getByTestId('font-size').selectOption('150')
  await page.getByTestId('font-size').focus()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByTestId('timeline-item')).toHaveCount(1)
  await expect(page.getByTestId('font-size')).toHaveValue('150')
  await page.keyboard.press('Space')
  await expect(page.getByTestId('timeline-item')).toHaveCount(2)
  await page.getByTestId('font-size').focus()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByTestId('font-size')).not.toHaveValue('150')
})

test('opening a share link over my own work keeps it: Undo, or Restore my previous work after a reload', async ({ page, browser }) => {
  await openApp(page)
  await page.getByTestId('lessons-toggle').click()
  await page.locator('[data-testid="lesson-item"][data-lesson-id="fail-timeout"]').click()
  await page.getByTestId('share-link').click()
  const url = await page.getByTestId('share-url').inputValue()
  const shared = await getEditor(page, 'model.ts')

  const learner = await browser.newContext({ viewport: { width: 1280, height: 720 } })
  await learner.route((u) => !LOCAL.test(u.href), (r) => r.abort())
  const other = await learner.newPage()
  await other.goto('/')
  await expect(other.getByTestId('editor-model').locator('.monaco-editor')).toBeVisible()
  const mine = 'export default () => "mine"'
  await setEditor(other, 'model.ts', mine)
  // Saved (the workspace is written on change) before the link arrives.
  await expect.poll(() => other.evaluate(() => localStorage.getItem('toolstep.workspace') ?? '')).toContain('mine')

  for (const how of ['undo', 'restore after reload'] as const) {
    await other.goto(url)
    await expect(other.getByTestId('link-ask')).toBeVisible()
    await other.getByTestId('link-open').click()
    await expect.poll(() => getEditor(other, 'model.ts')).toBe(shared)
    await expect(other.getByTestId('toast')).toContainText('replaced')
    if (how === 'undo') {
      await other.getByTestId('toast-action').click()
    } else {
      await other.reload()
      await expect(other.getByTestId('editor-model').locator('.monaco-editor')).toBeVisible()
      expect(await getEditor(other, 'model.ts')).toBe(shared)
      await (await inMore(other, 'restore-work')).click()
    }
    await expect.poll(() => getEditor(other, 'model.ts'), how).toBe(mine)
    await other.screenshot({ path: shot(`share-restored-${how.split(' ')[0]}`) })
  }
  // Restored, the entry is gone (nothing else is put aside).
  await other.getByTestId('toolbar-more').click()
  await expect(other.getByTestId('toolbar-more-menu')).toBeVisible()
  await expect(other.getByTestId('restore-work')).toHaveCount(0)
  await learner.close()
})

/**
 * Row boxes of the timeline: every row's text inside its own box (the two lines of one row do
 * not reach into the next), rows one under the other, and how many are wholly in view.
 */
async function timelineGeometry(page: import('@playwright/test').Page) {
  return page.getByTestId('timeline').evaluate((list) => {
    const view = list.getBoundingClientRect()
    const rows = [...list.querySelectorAll<HTMLElement>('[data-testid="timeline-item"]')].map((row) => {
      const box = row.getBoundingClientRect()
      const text = row.lastElementChild!.getBoundingClientRect()
      return { top: box.top, bottom: box.bottom, textTop: text.top, textBottom: text.bottom }
    })
    rows.sort((a, b) => a.top - b.top)
    const spills = rows.filter((r) => r.textTop < r.top - 0.5 || r.textBottom > r.bottom + 0.5).length
    const overlaps = rows.filter((r, i) => i > 0 && r.top < rows[i - 1]!.bottom - 0.5).length
    const bottom = Math.min(view.bottom, window.innerHeight)
    const inView = rows.filter((r) => r.top >= view.top - 0.5 && r.bottom <= bottom + 0.5).length
    return { spills, overlaps, inView }
  })
}

/**
 * Presenter mode on a projected laptop or a big screen, at every text size: the loop diagram
 * keeps a usable height, the timeline shows several whole rows whose text stays in its row, and
 * a narration too long for its room folds to its first lines with a button to read on.
 */
test.describe('presenter layout, on one page', () => {
  // The app is loaded once for the eight layouts: each test sets its size, language and text size
  // on the page the one before left (a reload per layout was most of the spec's time).
  let shared: Awaited<ReturnType<typeof sharedPage>>
  test.beforeAll(async ({ browser }) => {
    shared = await sharedPage(browser)
    await openApp(shared.page)
  })
  test.afterEach(() => shared.check())
  test.afterAll(() => shared.close())

for (const [width, height, size] of [[1280, 720, 150], [1280, 720, 200], [1920, 1080, 200], [1920, 1080, 100]] as const) {
  for (const language of ['en', 'zh-CN'] as const) {
    test(`presenter layout at ${width}×${height}, ${size} %, ${language}: diagram, narration and timeline rows all usable`, async () => {
      const { page } = shared
      await page.setViewportSize({ width, height })
      // From whatever the layout before left: presenter mode off, 100 %, the Lessons panel open.
      await presenterOff(page)
      await page.getByTestId('lang-select').selectOption(language)
      if (!(await page.getByTestId('lessons').isVisible())) await page.getByTestId('lessons-toggle').click()
      await page.locator('[data-testid="lesson-item"][data-lesson-id="parallel-calls"]').click()
      await page.getByTestId('lessons-toggle').click()
      await expect(page.getByTestId('lessons')).toBeHidden()
      await page.getByTestId('presenter-toggle').click()
      await page.getByTestId('font-size').selectOption(String(size))
      await page.getByTestId('run').click()
      await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
      // The parse phase: its narration names the four calls (the longest of the lesson).
      await page.locator('[data-testid="timeline-item"][data-phase="parse"]').first().click()
      await expect(page.getByTestId('narration')).toContainText('packing_list')

      const narration = (await page.getByTestId('narration').boundingBox())!
      expect(narration.y + narration.height, 'narration on screen').toBeLessThanOrEqual(height)
      const folded = await page.getByTestId('narration').evaluate((el) => el.scrollHeight > el.clientHeight + 1)
      if (folded) await expect(page.getByTestId('narration-toggle'), 'a cut narration can be read on').toBeVisible()

      // 720 px at 200 % is 22.5 rem: there the diagram starts folded away, and opens at its height.
      const short = height / (16 * (size / 100)) < 26
      await expect(page.getByTestId('diagram-toggle')).toHaveAttribute('aria-expanded', short ? 'false' : 'true')
      if (!short) {
        const diagram = (await page.getByTestId('loop-diagram').locator('svg').boundingBox())!
        expect(diagram.height, 'diagram height').toBeGreaterThanOrEqual(88)
        expect(diagram.y + diagram.height, 'diagram on screen').toBeLessThanOrEqual(height)
      }

      const rows = await timelineGeometry(page)
      expect(rows.spills, 'row text outside its row').toBe(0)
      expect(rows.overlaps, 'overlapping rows').toBe(0)
      expect(rows.inView, 'whole rows in view').toBeGreaterThanOrEqual(3)
      const timeline = (await page.getByTestId('timeline').boundingBox())!
      expect(timeline.y + timeline.height, 'timeline on screen').toBeLessThanOrEqual(height + 1)
      await page.screenshot({ path: shot(`presenter-${width}x${height}-${size}-${language}`) })

      // Unfolded, the whole narration is there to read (it scrolls in its box); folded again after.
      if (folded) {
        await page.getByTestId('narration-toggle').click()
        await expect(page.getByTestId('narration-toggle')).toHaveAttribute('aria-expanded', 'true')
        await expect(page.getByTestId('narration')).toContainText(language === 'en' ? 'call order' : '调用顺序')
        expect((await timelineGeometry(page)).inView, 'rows in view with the narration unfolded').toBeGreaterThanOrEqual(3)
        await page.getByTestId('narration-toggle').click()
      }
    })
  }
}
})

/** Presenter mode off and the text at 100 %, as a first visit has them. */
async function presenterOff(page: import('@playwright/test').Page) {
  if ((await page.getByTestId('presenter-toggle').getAttribute('aria-pressed')) === 'true') await page.getByTestId('presenter-toggle').click()
  await expect(page.getByTestId('presenter-toggle')).toHaveAttribute('aria-pressed', 'false')
  await page.getByTestId('font-size').selectOption('100')
  await expect(page.locator('html')).not.toHaveAttribute('style', /font-size: (?!100%)/)
}

/** What of the presenter view is cut: timeline titles, tool names, the pickers' choices, and the diagram's label size. */
async function presenterCuts(page: import('@playwright/test').Page) {
  return page.evaluate(() => {
    const cut = (el: Element) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1
    const titles = [...document.querySelectorAll('[data-testid="timeline-item"]')].map((row) => row.querySelector('[title]')!).filter(cut).map((el) => el.textContent)
    const titlesWithoutHover = [...document.querySelectorAll('[data-testid="timeline-item"]')]
      .map((row) => row.querySelector('[title]')!)
      .filter((el) => cut(el) && el.getAttribute('title') !== el.textContent)
      .map((el) => el.textContent)
    // A tool name is on one line (never split) and whole.
    const names = [...document.querySelectorAll<HTMLElement>('[data-testid="parsed-call-name"]')]
      .filter((el) => cut(el) || el.getBoundingClientRect().height > parseFloat(getComputedStyle(el).lineHeight) * 1.5)
      .map((el) => el.textContent)
    const canvas = document.createElement('canvas').getContext('2d')!
    const pickers = ['example-select', 'protocol-select'].filter((id) => {
      const select = document.querySelector<HTMLSelectElement>(`[data-testid="${id}"]`)!
      canvas.font = getComputedStyle(select).font
      // The choice's text beside the select's arrow (about 1.25em) and its padding.
      return canvas.measureText(select.selectedOptions[0]!.text).width > select.clientWidth - parseFloat(getComputedStyle(select).fontSize) * 1.25
    })
    const labels = [...document.querySelectorAll('[data-testid="diagram-label"]')].map((el) => el.getBoundingClientRect().height)
    const offScreen = [...document.querySelectorAll<HTMLElement>('[data-testid="timeline-item"], [data-testid="parsed-call"], [data-testid="lessons"], [data-testid="loop-diagram"]')]
      .filter((el) => { const b = el.getBoundingClientRect(); return b.left < -0.5 || b.right > window.innerWidth + 0.5 })
      .map((el) => el.dataset['testid'])
    return { titles, titlesWithoutHover, names, pickers, labelPx: labels.length ? Math.min(...labels) : 0, offScreen }
  })
}

/**
 * A projected laptop: 1280×720 at 150 % with the Lessons panel open beside presenter mode. The
 * timeline's titles wrap at spaces instead of ending in "…", tool names are never split, the
 * pickers show their whole choice, and the diagram's labels grow with the text size.
 */
test.describe('presenter at 1280×720 beside the Lessons panel, on one page', () => {
  // One load for both languages: the second starts from presenter mode off at 100 % and Reset.
  let shared: Awaited<ReturnType<typeof sharedPage>>
  test.beforeAll(async ({ browser }) => {
    shared = await sharedPage(browser)
    await shared.page.setViewportSize({ width: 1280, height: 720 })
    await openApp(shared.page)
  })
  test.afterEach(() => shared.check())
  test.afterAll(() => shared.close())

for (const language of ['en', 'zh-CN'] as const) {
  test(`presenter at 1280×720, 150 %, Lessons open, ${language}: titles, tool names and pickers whole; diagram labels follow the text size`, async () => {
    const { page } = shared
    await presenterOff(page)
    await page.getByTestId('lang-select').selectOption(language)
    await expect(page.locator('html')).toHaveAttribute('lang', language)
    if (!(await page.getByTestId('lessons').isVisible())) await page.getByTestId('lessons-toggle').click()
    await expect(page.getByTestId('lessons')).not.toHaveAttribute('data-folded', 'true')
    await page.locator('[data-testid="lesson-item"][data-lesson-id="parallel-calls"]').click()
    await expect(page.locator('[data-testid="lesson-item"][data-lesson-id="parallel-calls"]')).toHaveAttribute('aria-current', 'true')
    if (await page.getByTestId('reset').isEnabled()) await page.getByTestId('reset').click()
    await expect(page.getByTestId('timeline-item')).toHaveCount(0)
    await page.getByTestId('presenter-toggle').click()
    await page.getByTestId('run').click()
    await expect(page.getByTestId('stop-reason')).toContainText('final_answer')
    await page.locator('[data-testid="timeline-item"][data-phase="parse"]').first().click()
    await expect(page.getByTestId('parsed-call')).toHaveCount(4)
    const at100 = await presenterCuts(page)

    await page.getByTestId('font-size').selectOption('150')
    await expect(page.locator('html')).toHaveAttribute('style', /font-size: 150%/)
    await expect(page.getByTestId('lessons')).toBeVisible()
    // The labels are refitted once the box has its new size.
    await expect.poll(async () => (await presenterCuts(page)).labelPx).toBeGreaterThan(at100.labelPx * 1.25)
    const at150 = await presenterCuts(page)
    // The timeline is about 10 rem tall and 14 rem wide here: the phase badge gives its room to the
    // title, so every title is whole on one line (nothing to hover for on a projector).
    expect(at100.titles, 'cut timeline titles at 100 %').toEqual([])
    expect(at150.titles, 'cut timeline titles at 150 %').toEqual([])
    expect(at150.titlesWithoutHover, 'cut titles without their text on hover').toEqual([])
    const rows = await timelineGeometry(page)
    expect(rows.spills, 'row text outside its row').toBe(0)
    expect(rows.overlaps, 'overlapping rows').toBe(0)
    expect(at150.names, 'tool names split or cut').toEqual([])
    expect(at150.pickers, 'pickers whose choice is cut').toEqual([])
    expect(at150.offScreen, 'outside the window').toEqual([])
    expect(at150.labelPx, 'diagram labels at 150 %').toBeGreaterThanOrEqual(14)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
    await page.screenshot({ path: shot(`presenter-lessons-150-${language}`) })

    // Folded to a strip, the Lessons panel gives the run its width; unfolded it is back.
    const run = (await page.locator('#pane-run').boundingBox())!.width
    await page.getByTestId('lessons-fold').click()
    await expect(page.getByTestId('lessons')).toHaveAttribute('data-folded', 'true')
    await expect.poll(async () => (await page.locator('#pane-run').boundingBox())!.width).toBeGreaterThan(run + 200)
    await page.getByTestId('lessons-fold').click()
    await expect(page.getByTestId('lesson-text')).toBeVisible()
  })
}
})

/**
 * The visible text of `testId`'s element with code, raw model output, messages, ids and tool
 * names (monospace) left out: what is left is UI text and must be translated.
 */
async function uiWords(page: import('@playwright/test').Page, testId: string): Promise<string[]> {
  return page.getByTestId(testId).evaluate((root) => {
    const copy = root.cloneNode(true) as HTMLElement
    copy.querySelectorAll('pre, code, textarea, mark, .font-mono, [data-testid="raw-output"], [data-testid="parse-text"], [data-testid="final-answer"], [data-testid="inspector-final-answer"], [data-testid="message"], [data-testid="editor-tools"], [data-testid="editor-model"], svg title').forEach((el) => el.remove())
    const text = copy.innerText
    // Field-standard identifiers, role names and wire-format ids stay in every language (docs/glossary.md).
    const allowed = new Set(['JSON', 'Schema', 'OpenAI', 'tool_call_id', 'tool_calls', 'assistant', 'tool', 'user', 'system', 'depends_on', 'parameters', 'reasoning', 'final_answer', 'max_steps', 'repeated_call', 'PENDING', 'RUNNING', 'AWAITING_CONFIRMATION', 'COMPLETED', 'TOOL', 'ARGS', 'name', 'json', 'none', 'schema', 'Ctrl', 'xml', 'tag', 'openai'])
    // Words with an underscore are identifiers (tool names, call ids).
    return (text.match(/[A-Za-z_][A-Za-z_]{2,}/g) ?? []).filter((w) => !allowed.has(w) && !w.includes('_'))
  })
}

test('in 简体中文 and 繁體中文 the teaching UI, status bar, inspector and confirm dialog hold no English UI text', async ({ page }) => {
  await openApp(page)
  for (const language of ['zh-CN', 'zh-TW']) {
    await page.getByTestId('lang-select').selectOption(language)
    if (!(await page.getByTestId('lessons').isVisible())) await page.getByTestId('lessons-toggle').click()
    await page.locator('[data-testid="lesson-item"][data-lesson-id="confirmation"]').click()
    await page.getByTestId('run').click()
    await expect(page.getByTestId('confirm-dialog')).toBeVisible()
    expect(await uiWords(page, 'confirm-dialog'), `${language} confirm dialog`).toEqual([])
    await page.getByTestId('confirm-submit').click()
    await expect(page.getByTestId('stop-reason')).toBeVisible()
    for (const id of ['lessons', 'narration', 'loop-diagram', 'status-bar']) expect(await uiWords(page, id), `${language} ${id}`).toEqual([])
    // Every phase of the inspector, stepping back through the run.
    const count = await page.getByTestId('timeline-item').count()
    for (let i = 0; i < count; i++) {
      await page.getByTestId('timeline-item').nth(i).click()
      expect(await uiWords(page, 'inspector'), `${language} inspector at ${i}`).toEqual([])
      expect(await uiWords(page, 'narration'), `${language} narration at ${i}`).toEqual([])
    }
    await page.screenshot({ path: shot(`${language}-confirmation`) })
  }
})

/**
 * The teaching test ids are used directly by outside checks, with no menu opened first: at both
 * common screen sizes, in every language, and again after 150 % text and presenter mode.
 */
test.describe('the teaching controls, on one page', () => {
  // One load for the six sizes and languages; each test starts from what the one before left.
  let shared: Awaited<ReturnType<typeof sharedPage>>
  test.beforeAll(async ({ browser }) => {
    shared = await sharedPage(browser)
    await openApp(shared.page)
  })
  test.afterEach(() => shared.check())
  test.afterAll(() => shared.close())

for (const [width, height] of [[1280, 720], [1920, 1080]] as const) {
  for (const language of ['en', 'zh-CN', 'zh-TW'] as const) {
    test(`the teaching controls are in the toolbar's row at ${width}×${height} in ${language}, at 100 % and at 150 % in presenter mode`, async () => {
      const { page } = shared
      await page.setViewportSize({ width, height })
      // As on a first visit: presenter mode off, 100 %, no menu open, the Lessons panel closed.
      await page.keyboard.press('Escape')
      await presenterOff(page)
      if (await page.getByTestId('lessons').isVisible()) await page.getByTestId('lessons-toggle').click()
      await expect(page.getByTestId('lessons')).toBeHidden()
      await page.getByTestId('lang-select').selectOption(language)
      await expect(page.locator('html')).toHaveAttribute('lang', language)
      const usable = async (when: string) => {
        for (const id of ['lessons-toggle', 'presenter-toggle', 'font-size', 'share-link', 'lang-select']) {
          const control = page.getByTestId(id)
          await expect(control, `${id} ${when}`).toBeVisible()
          // Exactly one of it is shown, so an outside check finds one control, not a copy in a menu.
          expect(await control.evaluateAll((all) => all.filter((el) => el.checkVisibility()).length), `${id} ${when}`).toBe(1)
          await expect(control, `${id} ${when}`).toBeEnabled()
          const box = (await control.boundingBox())!
          expect(box.x, `${id} ${when}`).toBeGreaterThanOrEqual(0)
          expect(box.x + box.width, `${id} ${when}`).toBeLessThanOrEqual(width)
          expect(box.y + box.height, `${id} ${when}`).toBeLessThanOrEqual(height)
        }
        await expect(page.getByTestId('toolbar-more-menu')).toBeHidden()
      }
      /** Share link: the link is shown in share-url, whole and on screen. */
      const shares = async (when: string) => {
        await page.getByTestId('share-link').click()
        const url = page.getByTestId('share-url')
        await expect(url, when).toBeVisible()
        expect(await url.inputValue()).toMatch(/#share=[A-Za-z0-9_-]+$/)
        const box = (await url.boundingBox())!
        expect(box.x, when).toBeGreaterThanOrEqual(0)
        expect(box.x + box.width, when).toBeLessThanOrEqual(width)
        expect(box.y + box.height, when).toBeLessThanOrEqual(height)
        // Not clipped by anything around it: the point in its middle is the input itself.
        expect(await url.evaluate((el) => { const b = el.getBoundingClientRect(); return document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2) === el }), when).toBe(true)
        await page.keyboard.press('Escape')
        await expect(url).toBeHidden()
      }
      await usable('at 100 %')
      await page.getByTestId('lessons-toggle').click()
      await expect(page.getByTestId('lessons')).toBeVisible()
      await shares('at 100 %')

      await page.getByTestId('presenter-toggle').click()
      await expect(page.getByTestId('presenter-toggle')).toHaveAttribute('aria-pressed', 'true')
      await page.getByTestId('font-size').selectOption('150')
      await expect(page.locator('html')).toHaveAttribute('style', /font-size: 150%/)
      await usable('at 150 % in presenter mode')
      await shares('at 150 % in presenter mode')
      // The language switch still answers there.
      const other = language === 'en' ? 'zh-CN' : 'en'
      await page.getByTestId('lang-select').selectOption(other)
      await expect(page.locator('html')).toHaveAttribute('lang', other)
      await usable(`at 150 % in ${other}`)
      await page.getByTestId('lang-select').selectOption(language)
      await page.screenshot({ path: shot(`row-${width}x${height}-${language}-150-presenter`) })
      await page.getByTestId('presenter-toggle').click()
      await expect(page.getByTestId('presenter-toggle')).toHaveAttribute('aria-pressed', 'false')
      await page.getByTestId('font-size').selectOption('100')
      await page.screenshot({ path: shot(`row-${width}x${height}-${language}-100`) })
    })
  }
}
})
