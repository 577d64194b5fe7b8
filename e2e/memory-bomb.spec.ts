/**
 * User code that allocates without end, or loops without a pause, must not take the tab down:
 * it runs in the sandbox worker's QuickJS VM, whose memory is capped and whose code is
 * interrupted at its deadline. Each test checks the page still answers a click (a dialog
 * opens), the message names the file and phase, and the user's code is still in the editor.
 */
import type { Page } from '@playwright/test'
import { expect, getEditor, inMore, openApp, setEditor, test } from './fixtures'

/** Grows until the VM's memory limit stops it. */
const BOMB = 'const hoard: number[][] = []\n  for (;;) hoard.push(new Array(1e5).fill(hoard.length))'
/** The same with typed arrays: big blocks, nothing for the garbage collector to walk. */
const BLOCK_BOMB = 'const blocks: Float64Array[] = []\n  for (;;) blocks.push(new Float64Array(1e6))'

const TOOLS_OK = `import { tool, z } from 'toolstep'
export const echo = tool({ description: 'Echo.', inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text })
`

/** A model that calls `name` once, then answers with the last tool result. */
const callsOnce = (name: string) => `import type { ModelContext } from 'toolstep'
export default function model({ messages, step }: ModelContext) {
  if (step === 0) return { content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: '${name}', arguments: '{}' } }] }
  return 'Done: ' + String(messages[messages.length - 1]?.content).slice(0, 40)
}
`

/** A model that calls `names[k]` alone at turn k, then answers "Done.". */
const callsInTurns = (...names: string[]) => `import type { ModelContext } from 'toolstep'
export default function model({ step }: ModelContext) {
  const names = ${JSON.stringify(names)}
  if (step < names.length) return { content: null, tool_calls: [{ id: 'call_' + step, type: 'function', function: { name: names[step], arguments: '{}' } }] }
  return 'Done.'
}
`

/** The page answers: the shortcuts dialog opens on a click and closes again. */
async function expectAlive(page: Page): Promise<void> {
  await (await inMore(page, 'open-shortcuts')).click()
  await expect(page.getByTestId('shortcuts-help')).toBeVisible({ timeout: 1_000 })
  await page.keyboard.press('Escape')
}

const crashed: string[] = []
test.beforeEach(({ page }) => {
  page.on('crash', () => crashed.push(page.url()))
})
test.afterEach(() => {
  expect(crashed, 'the tab crashed').toEqual([])
})

test('a memory bomb at the top level of tools.ts, checked on edit without Run, is stopped and named', async ({ page }) => {
  await openApp(page)
  const source = `import { tool, z } from 'toolstep'\n{\n  ${BLOCK_BOMB}\n}\n${TOOLS_OK.split('\n').slice(1).join('\n')}`
  await setEditor(page, 'tools.ts', source)
  await expect(page.getByTestId('code-problem')).toContainText(/tools\.ts ran out of memory \(limit 256 MB\) while running its top-level code/, { timeout: 45_000 })
  // The message names its file: the banner does not say it twice.
  await expect(page.getByTestId('code-problem')).not.toContainText('tools.ts — tools.ts')
  await expectAlive(page)
  expect(await getEditor(page, 'tools.ts')).toBe(source)
})

test('memory taken by an async loop that the top level of tools.ts left running is blamed on tools.ts, not on model.ts', async ({ page }) => {
  await openApp(page)
  const source = `import { tool, z } from 'toolstep'\n;(async () => {\n  const keep: number[][] = []\n  for (;;) {\n    await null\n    keep.push(new Array(1e4).fill(1))\n  }\n})()\n${TOOLS_OK.split('\n').slice(1).join('\n')}`
  await setEditor(page, 'tools.ts', source)
  const problem = page.getByTestId('code-problem')
  await expect(problem).toContainText(/tools\.ts ran out of memory \(limit 256 MB\) in code still running after its top-level code ended/, { timeout: 45_000 })
  await expect(problem).not.toContainText('model.ts ran out of memory')
  await expectAlive(page)
  expect(await getEditor(page, 'tools.ts')).toBe(source)
})

test('a memory bomb in a tool, during a tool call, ends that call with the file and phase', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('protocol-select').selectOption('openai')
  const source = `import { tool, z } from 'toolstep'
export const hog = tool({
  description: 'Allocates without end.',
  inputSchema: z.object({}),
  timeoutMs: 60_000,
  execute: () => {
  ${BOMB}
  },
})
`
  await setEditor(page, 'tools.ts', source)
  await setEditor(page, 'model.ts', callsOnce('hog'))
  await page.getByTestId('run').click()
  const failed = page.locator('[data-testid="timeline-item"][data-phase="execute"][data-tone="error"]')
  await expect(failed.first()).toBeVisible({ timeout: 45_000 })
  // The row is clicked once the run has ended, so no new row moves it under the pointer.
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  await failed.first().click()
  await expect(page.getByTestId('tool-result').first()).toContainText('tools.ts ran out of memory (limit 256 MB) while running tool "hog"')
  await expectAlive(page)
  expect(await getEditor(page, 'tools.ts')).toBe(source)
})

test('typed-array and Map bombs in tools, slower to fill the VM than their timeout allows, are reported out of memory, not timed out', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('protocol-select').selectOption('openai')
  const source = `import { tool, z } from 'toolstep'
export const typed = tool({
  description: 'Typed arrays without end.',
  inputSchema: z.object({}),
  execute: () => {
  ${BLOCK_BOMB}
  },
})
export const keys = tool({
  description: 'A Map without end.',
  inputSchema: z.object({}),
  timeoutMs: 8000,
  execute: () => {
    const map = new Map<string, number>()
    for (let i = 0; ; i++) map.set('key' + i, i)
  },
})
`
  const model = callsInTurns('typed', 'keys')
  await setEditor(page, 'tools.ts', source)
  await setEditor(page, 'model.ts', model)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer', { timeout: 60_000 })
  const failed = page.locator('[data-testid="timeline-item"][data-phase="execute"][data-tone="error"]')
  await expect(failed).toHaveCount(2)
  for (const [index, name] of ['typed', 'keys'].entries()) {
    await failed.nth(index).click()
    const result = page.getByTestId('tool-result').first()
    await expect(result).toContainText(`tools.ts ran out of memory (limit 256 MB) while running tool "${name}"`)
    await expect(result).not.toContainText('timed out')
  }
  await expectAlive(page)
  expect(await getEditor(page, 'tools.ts')).toBe(source)
})

test('memory bombs inside builtins (join of a huge sparse array, split of a huge string) end their call with out of memory, and a deep JSON.stringify is an error of its call', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('protocol-select').selectOption('openai')
  const source = `import { tool, z } from 'toolstep'
export const joined = tool({ description: 'Joins 3e8 holes.', inputSchema: z.object({}), timeoutMs: 60_000, execute: () => new Array(3e8).join().length })
export const split = tool({ description: 'Splits 200 MB.', inputSchema: z.object({}), timeoutMs: 60_000, execute: () => 'x'.repeat(2e8).split('').length })
export const deep = tool({ description: 'Nests 1e5 arrays.', inputSchema: z.object({}), execute: () => { let a: unknown[] = []; for (let i = 0; i < 1e5; i++) a = [a]; return JSON.stringify(a) } })
`
  const model = callsInTurns('joined', 'split', 'deep')
  await setEditor(page, 'tools.ts', source)
  await setEditor(page, 'model.ts', model)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer', { timeout: 90_000 })
  const failed = page.locator('[data-testid="timeline-item"][data-phase="execute"][data-tone="error"]')
  await expect(failed).toHaveCount(3)
  for (const [index, name] of ['joined', 'split'].entries()) {
    await failed.nth(index).click()
    await expect(page.getByTestId('tool-result').first()).toContainText(`tools.ts ran out of memory (limit 256 MB) while running tool "${name}"`)
  }
  await failed.nth(2).click()
  await expect(page.getByTestId('tool-result').first()).toContainText('JSON.stringify: the value is nested deeper than 1000 levels.')
  await expectAlive(page)
  expect(await getEditor(page, 'tools.ts')).toBe(source)
})

test('a memory bomb in model.ts, during decide, ends the run with the file and phase', async ({ page }) => {
  await openApp(page)
  const source = `import type { ModelContext } from 'toolstep'
export default async function model({ step }: ModelContext) {
  await null
  ${BOMB}
  return 'never ' + step
}
`
  await setEditor(page, 'tools.ts', TOOLS_OK)
  await setEditor(page, 'model.ts', source)
  await page.getByTestId('run').click()
  await expect(page.getByText(/model\.ts ran out of memory \(limit 256 MB\) while answering turn 1/).first()).toBeVisible({ timeout: 45_000 })
  await expectAlive(page)
  expect(await getEditor(page, 'model.ts')).toBe(source)
})

test('an endless loop in a tool is interrupted at its timeout, with where it is, and the next call runs in the same sandbox', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('protocol-select').selectOption('openai')
  await setEditor(
    page,
    'tools.ts',
    `import { tool, z } from 'toolstep'
export const spin = tool({
  description: 'Never returns.',
  inputSchema: z.object({}),
  timeoutMs: 1500,
  execute: async () => {
    let n = 0
    for (;;) n++
  },
})
`,
  )
  await setEditor(page, 'model.ts', callsOnce('spin'))
  await page.getByTestId('run').click()
  const failed = page.locator('[data-testid="timeline-item"][data-phase="execute"][data-tone="error"]')
  await expect(failed.first()).toContainText('timed out')
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  await failed.first().click()
  await expect(page.getByTestId('tool-result').first()).toContainText(/timed out after \d+(\.\d)? m?s \(limit 1500 ms\) and was stopped\. It ran without a pause and was interrupted( \(at tools\.ts:\d+:\d+\))?\. Is there an endless loop\?/)
  await expectAlive(page)
})

test('runaway recursion in one of two parallel tool calls is an error that tool can catch; the other call and the loaded state are unharmed', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('protocol-select').selectOption('openai')
  const source = `import { tool, z } from 'toolstep'
const loadedAt = 'loaded'
export const deep = tool({
  description: 'Recurses without end.',
  inputSchema: z.object({}),
  execute: () => {
    let depth = 0
    const f = (n: number): number => (depth = n, f(n + 1) + 1)
    try { return f(0) } catch (e) { return 'caught ' + (e as Error).name + ' at depth ' + depth }
  },
})
export const calm = tool({ description: 'Answers.', inputSchema: z.object({}), execute: async () => { await new Promise((r) => setTimeout(r, 50)); return 'calm ' + loadedAt } })
`
  await setEditor(page, 'tools.ts', source)
  await setEditor(page, 'model.ts', `import type { ModelContext } from 'toolstep'
export default function model({ step }: ModelContext) {
  if (step === 0) return { content: null, tool_calls: [
    { id: 'call_1', type: 'function', function: { name: 'deep', arguments: '{}' } },
    { id: 'call_2', type: 'function', function: { name: 'calm', arguments: '{}' } },
  ] }
  return 'Done'
}
`)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer', { timeout: 30_000 })
  const results = page.locator('[data-testid="timeline-item"][data-phase="execute"]')
  await expect(results).toHaveCount(2)
  await expect(page.locator('[data-testid="timeline-item"][data-phase="execute"][data-tone="error"]')).toHaveCount(0)
  await results.nth(0).click()
  await expect(page.getByTestId('tool-result').filter({ hasText: /caught (InternalError|RangeError) at depth \d+/ })).toHaveCount(1)
  await results.nth(1).click()
  await expect(page.getByTestId('tool-result').filter({ hasText: 'calm loaded' })).toHaveCount(1)
  await expectAlive(page)
})

test('runaway recursion at the top level of tools.ts, checked on edit, is named in the editor and the code is kept', async ({ page }) => {
  await openApp(page)
  const source = `import { tool, z } from 'toolstep'\nconst f = (n: number): number => f(n + 1) + 1\nf(0)\n${TOOLS_OK.split('\n').slice(1).join('\n')}`
  await setEditor(page, 'tools.ts', source)
  await expect(page.getByTestId('code-problem')).toContainText(/tools\.ts/, { timeout: 30_000 })
  await expect(page.getByTestId('code-problem')).toContainText(/stack overflow|Maximum call stack/)
  await expectAlive(page)
  expect(await getEditor(page, 'tools.ts')).toBe(source)
})

test('eval of source nested too deeply is a SyntaxError the tool catches, a huge sparse array stops at its timeout, and nesting at the limit still parses', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('protocol-select').selectOption('openai')
  const source = `import { tool, z } from 'toolstep'
const attempt = (f: () => unknown) => { try { return String(f()) } catch (e) { return (e as Error).name + ': ' + (e as Error).message } }
export const deep = tool({
  description: 'Evaluates deeply nested source.',
  inputSchema: z.object({}),
  execute: () => [
    attempt(() => eval('('.repeat(800) + '1' + ')'.repeat(800))),
    attempt(() => new Function('return ' + '['.repeat(800) + ']'.repeat(800))()),
    // At the limit (the costliest nestings QuickJS parses) the browser's stack still holds.
    attempt(() => typeof eval('\`\${()=>'.repeat(191) + '1' + '}\`'.repeat(191))),
    attempt(() => typeof eval('(function(){return '.repeat(96) + '1' + '})'.repeat(96))),
  ].join(' | '),
})
export const sparse = tool({
  description: 'Searches 3e8 holes.',
  inputSchema: z.object({}),
  timeoutMs: 1500,
  execute: () => { const a: number[] = []; a.length = 3e8; return a.indexOf(1) },
})
`
  const model = callsInTurns('deep', 'sparse', 'deep')
  await setEditor(page, 'tools.ts', source)
  await setEditor(page, 'model.ts', model)
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer', { timeout: 30_000 })
  const results = page.locator('[data-testid="timeline-item"][data-phase="execute"]')
  await expect(results).toHaveCount(3)
  for (const index of [0, 2]) {
    await results.nth(index).click()
    await expect(page.getByTestId('tool-result').first()).toContainText('SyntaxError: nested too deeply: 800 levels, limit 192 | SyntaxError: nested too deeply: 802 levels, limit 192 | string | function')
  }
  await results.nth(1).click()
  await expect(page.getByTestId('tool-result').first()).toContainText(/Tool "sparse" timed out after \d+(\.\d)? m?s \(limit 1500 ms\) and was stopped\. It ran without a pause and was interrupted/)
  await expectAlive(page)
  expect(await getEditor(page, 'tools.ts')).toBe(source)
})
