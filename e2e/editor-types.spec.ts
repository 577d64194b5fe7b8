import type { Page } from '@playwright/test'
import { expect, openApp, test } from './fixtures'

/** The editor's markers for `file`, as "line: message". */
function markers(page: Page, file: 'tools.ts' | 'model.ts'): Promise<string[]> {
  return page.evaluate((path) => {
    const monaco = window.__monaco!
    return monaco.editor.getModelMarkers({ resource: monaco.Uri.parse(`file:///${path}`) }).map((m) => `${m.startLineNumber}: ${m.message}`)
  }, file)
}

/** Puts the keyboard focus in the editor of `file` (a click may land on the other, overlapping panel). */
async function focus(page: Page, file: 'tools.ts' | 'model.ts'): Promise<void> {
  await page.evaluate((path) => {
    const monaco = window.__monaco!
    const editor = monaco.editor.getEditors().find((candidate) => candidate.getModel()?.uri.path === `/${path}`)
    if (!editor) throw new Error(`no editor for ${path}`)
    editor.focus()
  }, file)
}

/** Replaces the file's text by typing it, one line at a time (Monaco auto-indents typed newlines). */
async function typeInto(page: Page, file: 'tools.ts' | 'model.ts', lines: string[]): Promise<void> {
  await focus(page, file)
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Delete')
  for (const [index, line] of lines.entries()) {
    if (index > 0) await page.keyboard.press('Enter')
    await page.keyboard.type(line)
  }
}

const toolLine = (body: string) => `export const when = tool({ description: 'd', inputSchema: z.object({ at: z.iso.datetime(), n: z.coerce.number() }), execute: ({ at, n }) => ${body} })`

test('typed user code is checked against the generated toolstep and zod declarations', async ({ page }) => {
  await openApp(page)

  // A wrong call is marked, which also shows the TypeScript worker has checked the file…
  await typeInto(page, 'tools.ts', ["import { tool, z } from 'toolstep'", toolLine('at.toFixed(n)')])
  await expect.poll(() => markers(page, 'tools.ts'), { timeout: 30_000 }).toEqual([expect.stringMatching(/^2: Property 'toFixed' does not exist on type 'string'/)])
  // …and the correct call, using zod API the old hand-written subset lacked, is not.
  await typeInto(page, 'tools.ts', ["import { tool, z } from 'toolstep'", toolLine('at.slice(0, n)')])
  await expect.poll(() => markers(page, 'tools.ts'), { timeout: 30_000 }).toEqual([])

  await typeInto(page, 'model.ts', ["import type { ModelContext } from 'toolstep'", 'export default (ctx: ModelContext) => ctx.stepp'])
  await expect.poll(() => markers(page, 'model.ts'), { timeout: 30_000 }).toEqual([expect.stringMatching(/^2: Property 'stepp' does not exist on type 'ModelContext'/)])
  await typeInto(page, 'model.ts', ["import type { ModelContext } from 'toolstep'", 'export default (ctx: ModelContext) => `${ctx.protocol}:${ctx.step}`'])
  await expect.poll(() => markers(page, 'model.ts'), { timeout: 30_000 }).toEqual([])

  // IntelliSense offers zod's schema builders after `z.`.
  await focus(page, 'tools.ts')
  await page.keyboard.press('ControlOrMeta+End')
  await page.keyboard.press('Enter')
  await page.keyboard.type('z.obj')
  await expect(page.locator('.suggest-widget .monaco-list-row').first()).toContainText('object', { timeout: 30_000 })
})
