import { afterAll, describe, expect, it } from 'vitest'
import { rawOutput } from '../core/loop/phases'
import type { ToolSpec } from '../core/tools/types'
import { createNodeSandbox } from './node-sandbox'

const TOOLS = `import { tool, z } from 'toolstep'

export const add = tool({
  description: 'Adds two numbers.',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => ({ sum: a + b }),
})

export const explode = tool({
  description: 'Always throws.',
  inputSchema: z.object({}),
  execute: () => {
    throw new Error('kaboom')
  },
})

export const spin = tool({
  description: 'Never returns.',
  inputSchema: z.object({}),
  timeoutMs: 300,
  execute: () => {
    while (true) {}
  },
})

export const wait_forever = tool({
  description: 'Never settles.',
  inputSchema: z.object({}),
  timeoutMs: 300,
  execute: () => new Promise(() => {}),
})
`

const MODEL = `import { callTools, type ModelContext } from 'toolstep'
export default (ctx: ModelContext) => ctx.step === 0
  ? callTools(ctx.protocol, [{ name: 'add', arguments: { a: 1, b: 2 } }])
  : 'The sum is ' + ctx.messages[ctx.messages.length - 1]?.content
`

const spec = (name: string, timeoutMs?: number): ToolSpec => ({ name, description: '', inputSchema: {}, ...(timeoutMs ? { timeoutMs } : {}) })
const request = (step: number) => ({ messages: [{ role: 'user' as const, content: 'add' }], tools: [], step, protocol: 'openai' })

describe('node sandbox', () => {
  const sandbox = createNodeSandbox()
  afterAll(() => sandbox.dispose())

  it('loads tools and the model', async () => {
    const loaded = await sandbox.load({ tools: TOOLS, model: MODEL })
    expect(loaded.ok).toBe(true)
    expect(loaded.hasModel).toBe(true)
    expect(loaded.tools.map((tool) => [tool.name, tool.timeoutMs])).toEqual([
      ['add', undefined],
      ['explode', undefined],
      ['spin', 300],
      ['wait_forever', 300],
    ])
  })

  it('calls the model; a native assistant message comes back as the OpenAI wire JSON the engine logs for it', async () => {
    const message = { role: 'assistant' as const, content: null, tool_calls: [{ id: 'call_0_1', type: 'function' as const, function: { name: 'add', arguments: '{"a":1,"b":2}' } }] }
    expect(await sandbox.respond(request(0))).toEqual({ kind: 'text', raw: rawOutput({ kind: 'message', message }) })
  })

  it('runs a tool', async () => {
    const outcome = await sandbox.execute({ id: 'c1', name: 'add', arguments: { a: 2, b: 3 } }, spec('add'))
    expect(outcome).toMatchObject({ ok: true, result: '{"sum":5}' })
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('writes back a throwing tool and arguments that fail the schema', async () => {
    expect(await sandbox.execute({ id: 'c2', name: 'explode', arguments: {} }, spec('explode'))).toMatchObject({
      ok: false,
      error: 'Error: kaboom',
      timedOut: false,
    })
    expect(await sandbox.execute({ id: 'c3', name: 'add', arguments: { a: 'one', b: 2 } }, spec('add'))).toMatchObject({
      ok: false,
      error: 'Invalid arguments for tool "add": a: expected number, received string',
      timedOut: false,
    })
  })

  it('kills while(true) at its timeout, and the next call works', async () => {
    const outcome = await sandbox.execute({ id: 'c4', name: 'spin', arguments: {} }, spec('spin', 300))
    expect(outcome).toEqual({ ok: false, timedOut: true, error: 'Tool "spin" timed out after 300 ms and was stopped.', durationMs: expect.any(Number) })
    expect(await sandbox.execute({ id: 'c5', name: 'add', arguments: { a: 1, b: 1 } }, spec('add'))).toMatchObject({ ok: true, result: '{"sum":2}' })
    expect(await sandbox.respond(request(1))).toEqual({ kind: 'text', raw: 'The sum is add' })
  })

  it('kills a never-settling promise, falling back to the tool’s own timeout', async () => {
    const outcome = await sandbox.execute({ id: 'c6', name: 'wait_forever', arguments: {} }, spec('wait_forever'))
    expect(outcome).toMatchObject({ ok: false, timedOut: true, error: 'Tool "wait_forever" timed out after 300 ms and was stopped.' })
    expect(await sandbox.execute({ id: 'c7', name: 'add', arguments: { a: 4, b: 4 } }, spec('add'))).toMatchObject({ ok: true })
  })

  it('reports the other calls running in the same worker as interrupted when one times out, naming it', async () => {
    const [hung, other] = await Promise.all([
      sandbox.execute({ id: 'c8', name: 'spin', arguments: {} }, spec('spin', 300)),
      sandbox.execute({ id: 'c9', name: 'add', arguments: { a: 1, b: 2 } }, spec('add')),
    ])
    expect(hung).toMatchObject({ timedOut: true })
    // `add` was queued behind the busy loop, so it never ran; it is reported, not lost, and says
    // that it never started (the worker reports each slice of calls before starting it).
    expect(other).toMatchObject({
      ok: false,
      timedOut: false,
      interrupted: true,
      error: 'Not run: call c8 ("spin") stopped the sandbox before this call started, so it had no effects.',
    })
    // The sandbox itself recovers: a new call runs on the fresh worker.
    expect(await sandbox.execute({ id: 'c9', name: 'add', arguments: { a: 1, b: 2 } }, spec('add'))).toMatchObject({ ok: true, result: '{"sum":3}' })
  })
})

describe('node sandbox: load errors and timeouts', () => {
  it('locates a syntax error and reports both files', async () => {
    const sandbox = createNodeSandbox()
    try {
      const loaded = await sandbox.load({ tools: "import { tool } from 'toolstep'\n\nexport const x = tool({\n", model: 'export default 1 +' })
      expect(loaded.ok).toBe(false)
      if (loaded.ok) return
      expect(loaded.error).toMatchObject({ file: 'tools.ts', line: 4, message: expect.stringContaining('SyntaxError') })
      expect(loaded.errors.map((error) => error.file)).toEqual(['tools.ts', 'model.ts'])
      await expect(sandbox.respond(request(0))).rejects.toThrow('not loaded')
    } finally {
      sandbox.dispose()
    }
  })

  it('reports top-level await in either file at its line and column, as the browser sandbox does', async () => {
    const sandbox = createNodeSandbox()
    try {
      const loaded = await sandbox.load({ tools: 'const cfg = await Promise.resolve(1)\n', model: "const a = 1\nconst b = await a\nexport default () => 'x'\n" })
      expect(loaded.ok).toBe(false)
      if (loaded.ok) return
      const message = "top-level await is not supported; move it into a tool's execute or the model function"
      expect(loaded.errors).toEqual([
        { file: 'tools.ts', line: 1, column: 13, message },
        { file: 'model.ts', line: 2, column: 11, message },
      ])
    } finally {
      sandbox.dispose()
    }
  })

  it('times out the model call and rejects with a clear error', async () => {
    const sandbox = createNodeSandbox({ modelTimeoutMs: 300 })
    try {
      await sandbox.load({ tools: '', model: 'export default () => new Promise(() => {})' })
      await expect(sandbox.respond(request(0))).rejects.toThrow('Model timed out after 300 ms and was stopped.')
    } finally {
      sandbox.dispose()
    }
  })

  it('stops a top-level endless loop while loading', async () => {
    const sandbox = createNodeSandbox({ loadTimeoutMs: 300 })
    try {
      const loaded = await sandbox.load({ tools: 'while (true) {}' })
      expect(loaded).toMatchObject({ ok: false, error: { file: 'tools.ts', message: expect.stringContaining('did not finish loading within 300 ms') } })
      // Reloading would hang again, so calls fail at once with the load error.
      expect(await sandbox.execute({ id: 'c1', name: 'x', arguments: {} }, spec('x'))).toMatchObject({ ok: false, timedOut: false })
    } finally {
      sandbox.dispose()
    }
  })

  it('fails calls after dispose', async () => {
    const sandbox = createNodeSandbox()
    await sandbox.load({ tools: '' })
    sandbox.dispose()
    expect(await sandbox.execute({ id: 'c1', name: 'x', arguments: {} }, spec('x'))).toMatchObject({ ok: false, error: 'The sandbox was disposed.' })
    await expect(sandbox.load({ tools: '' })).rejects.toThrow('disposed')
  })
})
