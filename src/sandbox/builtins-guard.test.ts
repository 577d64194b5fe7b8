/**
 * User code that replaces built-ins the sandbox relies on (JSON, Object.prototype, Array and
 * Promise methods): the call that did it fails saying what it changed, and the next call works.
 * Also run inside the browser's QuickJS VM (builtins-guard.quickjs.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { ATTACKS, modelWith, toolsWith } from '../test/builtin-attacks'
import { createRuntime } from './runtime'

const header = "import { tool, z } from 'toolstep'\n"
const request = (step: number) => ({ messages: [{ role: 'user' as const, content: 'hi' }], tools: [], step, protocol: 'openai' })

const GOOD_RESULT = { ok: true, result: '{"doubled":[2,4]}' }
const GOOD_OUTPUT = { ok: true, output: { kind: 'message', message: { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'good', arguments: '{"items":[1,2]}' } }] } } }

describe.each(ATTACKS)('user code that runs `%s`', (attack, change) => {
  it('in a tool: that call fails naming the tool and the built-in; the next calls work', async () => {
    const runtime = createRuntime()
    expect(runtime.load('tools.ts', toolsWith(attack))).toMatchObject({ ok: true })
    for (const later of [false, true]) {
      expect(await runtime.executeTool('bad', { later }, 'c1')).toEqual({
        ok: false,
        error: { name: 'BuiltinsChangedError', message: expect.stringMatching(new RegExp(`^Tool "bad" ${change.replace(/\./g, '\\.')}\\. The sandbox relies on the built-ins, so it puts them back after each call`)) },
      })
      expect(await runtime.executeTool('good', { items: [1, 2] }, 'c2')).toEqual(GOOD_RESULT)
    }
    // The batch path (one entry per call, same-job results) says the same.
    if (runtime.startTool) {
      const started = (name: string, args: Record<string, never[] | boolean>) => new Promise((resolve) => runtime.startTool?.(name, args, 'c3', resolve))
      const results = await Promise.all([started('bad', { later: false }), started('good', { items: [] })])
      expect(results).toEqual([{ ok: false, error: expect.objectContaining({ message: expect.stringContaining(`Tool "bad" ${change}.`) }) }, { ok: true, result: '{"doubled":[]}' }])
    }
    // So does a batch in the QuickJS VM (one entry for many calls).
    if (runtime.startTools) {
      const settled = new Map<number, unknown>()
      await new Promise<void>((resolve) => {
        runtime.startTools?.(
          [0, 1, 2].map((key) => ({ key, name: key === 1 ? 'bad' : 'good', arguments: (key === 1 ? { later: false } : { items: [key] }) as Record<string, boolean | number[]>, callId: `b${key}`, timeoutMs: 5000 })),
          (key, result) => {
            settled.set(key, result)
            if (settled.size === 3) resolve()
          },
        )
      })
      expect(settled.get(1)).toEqual({ ok: false, error: expect.objectContaining({ message: expect.stringContaining(`Tool "bad" ${change}.`) }) })
      expect([settled.get(0), settled.get(2)]).toEqual([{ ok: true, result: '{"doubled":[0]}' }, { ok: true, result: '{"doubled":[4]}' }])
    }
    expect(await runtime.callModel(request(1))).toMatchObject({ ok: false, error: { message: expect.stringContaining('model.ts is not loaded') } })
  })

  it('in model.ts: that turn fails naming model.ts and the built-in; the next turn works', async () => {
    const runtime = createRuntime()
    expect(runtime.load('tools.ts', toolsWith(''))).toMatchObject({ ok: true })
    expect(runtime.load('model.ts', modelWith(attack))).toMatchObject({ ok: true })
    expect(await runtime.callModel(request(0))).toEqual({
      ok: false,
      error: { name: 'BuiltinsChangedError', message: expect.stringMatching(new RegExp(`^model\\.ts ${change.replace(/\./g, '\\.')}\\. `)) },
    })
    expect(await runtime.callModel(request(1))).toEqual(GOOD_OUTPUT)
    expect(await runtime.executeTool('good', { items: [1, 2] }, 'c2')).toEqual(GOOD_RESULT)
  })

  it('at the top level of tools.ts: the load fails naming the file and the built-in; the next load works', async () => {
    const runtime = createRuntime()
    expect(runtime.load('tools.ts', `;${attack}\n${toolsWith('')}`)).toEqual({
      ok: false,
      error: { file: 'tools.ts', message: expect.stringMatching(new RegExp(`^tools\\.ts at its top level ${change.replace(/\./g, '\\.')}\\. `)) },
    })
    expect(await runtime.executeTool('good', { items: [1, 2] }, 'c1')).toMatchObject({ ok: false, error: { name: 'UnknownToolError' } })
    expect(runtime.load('tools.ts', toolsWith(''))).toMatchObject({ ok: true })
    expect(runtime.load('model.ts', modelWith(''))).toMatchObject({ ok: true })
    expect(await runtime.executeTool('good', { items: [1, 2] }, 'c2')).toEqual(GOOD_RESULT)
    expect(await runtime.callModel(request(0))).toEqual(GOOD_OUTPUT)
  })
})

describe('changed built-ins, further cases', () => {
  it('names every change, including a deleted method and a swapped prototype, and puts them all back', async () => {
    const runtime = createRuntime()
    runtime.load(
      'tools.ts',
      `${header}export const wreck = tool({ description: '', inputSchema: z.object({}), execute: () => {
  delete (Array.prototype as any).includes
  Object.setPrototypeOf(Map.prototype, null)
  ;(globalThis as any).JSON = {}
  return 'wrecked'
} })
export const check = tool({ description: '', inputSchema: z.object({}), execute: () => [[1].includes(1), new Map() instanceof Object, typeof JSON.stringify].join() })`,
    )
    expect(await runtime.executeTool('wreck', {}, 'c1')).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^Tool "wreck" (?=.*deleted Array\.prototype\.includes)(?=.*changed the prototype of Map\.prototype)(?=.*replaced JSON)/) },
    })
    expect(await runtime.executeTool('check', {}, 'c2')).toEqual({ ok: true, result: 'true,true,function' })
  })

  it('leaves the globals user code adds alone, and a tool that only uses built-ins passes', async () => {
    const runtime = createRuntime()
    runtime.load(
      'tools.ts',
      `${header}export const remember = tool({ description: '', inputSchema: z.object({}), execute: () => {
  const store = ((globalThis as any).__myCache ??= new Map())
  store.set('n', (store.get('n') ?? 0) + 1)
  return JSON.stringify([...store.entries()].map(([k, v]) => k + v))
} })`,
    )
    expect(await runtime.executeTool('remember', {}, 'c1')).toEqual({ ok: true, result: '["n1"]' })
    expect(await runtime.executeTool('remember', {}, 'c2')).toEqual({ ok: true, result: '["n2"]' })
  })

  it('lets code mock Math.random and Date.now (at the top level, for repeatable tools): they stay mocked', async () => {
    const runtime = createRuntime()
    expect(
      runtime.load(
        'tools.ts',
        `${header}Math.random = () => 0.5
Date.now = () => 1000
export const roll = tool({ description: '', inputSchema: z.object({}), execute: () => String(Math.random() * Date.now()) })`,
      ),
    ).toMatchObject({ ok: true })
    expect(await runtime.executeTool('roll', {}, 'c1')).toEqual({ ok: true, result: '500' })
    expect(await runtime.executeTool('roll', {}, 'c2')).toEqual({ ok: true, result: '500' })
  })

  it('in route() and summarize(): the hook fails naming itself', async () => {
    const runtime = createRuntime()
    runtime.load(
      'tools.ts',
      `${toolsWith('')}
export function route() { JSON.stringify = () => '{}'; return ['good'] }
export function summarize(result: string) { (Object.prototype as any).x = 1; return result.slice(0, 3) }`,
    )
    expect(await runtime.callRoute(request(0))).toEqual({ ok: false, error: { name: 'BuiltinsChangedError', message: expect.stringMatching(/^route\(\) in tools\.ts replaced JSON\.stringify\. /) } })
    expect(await runtime.callSummarize('abcdef', { tool: 'good', maxChars: 3 })).toEqual({
      ok: false,
      error: { name: 'BuiltinsChangedError', message: expect.stringMatching(/^summarize\(\) in tools\.ts added Object\.prototype\.x\. /) },
    })
    expect(await runtime.executeTool('good', { items: [1, 2] }, 'c2')).toEqual(GOOD_RESULT)
  })

  it('in a code block: the block fails naming itself; a tool it called answers for its own change', async () => {
    const runtime = createRuntime()
    runtime.load('tools.ts', toolsWith('JSON.parse = () => ({})'))
    const block = await runtime.runCode('console.log("ran")\nArray.prototype.map = () => []', { maxOutputChars: 1000 })
    expect(block).toMatchObject({ ok: false, output: 'ran', error: expect.stringMatching(/^The code block replaced Array\.prototype\.map\. /) })
    const calling = await runtime.runCode('try { await bad({ later: false }) } catch (error) { console.log(String(error)) }', { maxOutputChars: 1000 })
    expect(calling).toMatchObject({ ok: true, output: expect.stringContaining('Tool "bad" replaced JSON.parse.') })
    expect(await runtime.executeTool('good', { items: [1, 2] }, 'c2')).toEqual(GOOD_RESULT)
  })
})
