import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import runtimeSource from 'virtual:toolstep-vm-runtime'
import { beforeAll, describe, expect, it } from 'vitest'
import type { BatchCall, BatchResult } from './protocol'
import { createRuntime, type SandboxRuntime } from './runtime'
import { readBatch, runToolBatch, type BatchUpdate } from './tool-batch'
import { createQuickJsRuntime } from './vm/quickjs-runtime'

const TOOLS = `import { tool, z } from 'toolstep'
export const add = tool({ description: '', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => a + b })
export const explode = tool({ description: '', inputSchema: z.object({}), execute: () => { throw new TypeError('kaboom') } })
export const spin = tool({ description: '', inputSchema: z.object({}), execute: () => { for (;;) {} } })
export const wait_forever = tool({ description: '', inputSchema: z.object({}), execute: () => new Promise(() => {}) })
export const busy = tool({ description: 'Busy for 60 ms, then answers.', inputSchema: z.object({ n: z.number() }), execute: ({ n }) => {
  const until = Date.now() + 60
  while (Date.now() < until) {}
  return 'done ' + n
} })
`

let module: QuickJSWASMModule
beforeAll(async () => {
  module = await newQuickJSWASMModuleFromVariant(variant)
})

const call = (name: string, args: Record<string, number> = {}, timeoutMs = 5000, index = 0): BatchCall => ({ callId: `c${index}`, name, arguments: args, timeoutMs })

/** Runs one batch and resolves with every update it reported, and its results by index. */
function run(runtime: SandboxRuntime, calls: BatchCall[]): Promise<{ updates: BatchUpdate[]; results: Map<number, BatchResult> }> {
  return new Promise((resolve) => {
    const updates: BatchUpdate[] = []
    const results = new Map<number, BatchResult>()
    runToolBatch(runtime, calls, (update) => {
      updates.push(update)
      for (const result of update.results) {
        expect(results.has(result.index), `call ${result.index} reported twice`).toBe(false)
        results.set(result.index, result)
      }
      if (update.done) resolve({ updates, results })
      // A timed-out call never settles; the host stops the worker then, so the batch ends here.
      else if (update.results.some((result) => result.timedOut) && results.size === calls.length) resolve({ updates, results })
    })
  })
}

const engines: [string, () => SandboxRuntime & { dispose?: () => void }][] = [
  ['V8 runtime', () => createRuntime()],
  ['QuickJS VM', () => createQuickJsRuntime(module, runtimeSource, { memoryLimitMb: 64 })],
]

describe.each(engines)('a batch of tool calls on the %s', (_engine, make) => {
  it('gives each call its own result or error, in batch order', async () => {
    const runtime = make()
    expect(runtime.load('tools.ts', TOOLS)).toMatchObject({ ok: true })
    const { updates, results } = await run(runtime, [call('add', { a: 1, b: 2 }), call('explode'), call('add', { a: 'x' } as never), call('nope'), call('add', { a: 40, b: 2 })])
    expect([...results.keys()].sort()).toEqual([0, 1, 2, 3, 4])
    expect(results.get(0)?.result).toEqual({ ok: true, result: '3' })
    expect(results.get(1)?.result).toMatchObject({ ok: false, error: { name: 'TypeError', message: 'kaboom' } })
    expect(results.get(2)?.result).toMatchObject({ ok: false, error: { name: 'InvalidArgumentsError' } })
    expect(results.get(3)?.result).toMatchObject({ ok: false, error: { name: 'UnknownToolError' } })
    expect(results.get(4)?.result).toEqual({ ok: true, result: '42' })
    expect(updates.at(-1)).toMatchObject({ done: true, started: 5 })
    runtime.dispose?.()
  })

  it('reports a call that never settles as timed out at its own timeout, and its siblings as they are', async () => {
    const runtime = make()
    runtime.load('tools.ts', TOOLS)
    const { results } = await run(runtime, [call('wait_forever', {}, 200, 0), call('add', { a: 2, b: 2 }, 5000, 1)])
    expect(results.get(0)).toMatchObject({ timedOut: true, result: { ok: false } })
    expect(results.get(0)?.durationMs).toBeGreaterThanOrEqual(200)
    expect(results.get(1)).toMatchObject({ result: { ok: true, result: '4' } })
    expect(results.get(1)?.timedOut).toBeUndefined()
    runtime.dispose?.()
  })

  it('starts an empty batch and ends it at once', async () => {
    const runtime = make()
    const { updates } = await run(runtime, [])
    expect(updates).toEqual([{ started: 0, done: true, results: [] }])
  })
})

describe('a batch of tool calls in the QuickJS VM', () => {
  it('interrupts a call that runs without a pause past its budget, and only that call', async () => {
    const runtime = createQuickJsRuntime(module, runtimeSource, { memoryLimitMb: 64 })
    runtime.load('tools.ts', TOOLS)
    const { results } = await run(runtime, [call('add', { a: 1, b: 1 }, 5000, 0), call('spin', {}, 300, 1), call('add', { a: 2, b: 3 }, 5000, 2)])
    expect(results.get(1)?.result).toMatchObject({ ok: false, error: { name: 'InterruptedError', message: expect.stringContaining('without a pause and was interrupted') } })
    expect(results.get(0)?.result).toEqual({ ok: true, result: '2' })
    expect(results.get(2)?.result).toEqual({ ok: true, result: '5' })
    // The VM is still usable.
    expect((await run(runtime, [call('add', { a: 5, b: 5 })])).results.get(0)?.result).toEqual({ ok: true, result: '10' })
    runtime.dispose()
  })

  it('counts each call’s budget from its own start, not from when the batch arrived', async () => {
    const runtime = createQuickJsRuntime(module, runtimeSource, { memoryLimitMb: 64 })
    runtime.load('tools.ts', TOOLS)
    // Eight calls of 60 ms each take 480 ms together; each alone stays well inside its 250 ms.
    const calls = Array.from({ length: 8 }, (_, n) => ({ ...call('busy', { n }, 250, n) }))
    const { results } = await run(runtime, calls)
    expect([...results.values()].map((result) => result.result)).toEqual(calls.map((_, n) => ({ ok: true, result: `done ${n}` })))
    runtime.dispose()
  })

  it('runs a turn of 20 000 calls with every result in place', async () => {
    const runtime = createQuickJsRuntime(module, runtimeSource, { memoryLimitMb: 64 })
    runtime.load('tools.ts', TOOLS)
    const calls = Array.from({ length: 20_000 }, (_, n) => call('add', { a: n, b: 1 }, 60_000, n))
    const { updates, results } = await run(runtime, calls)
    expect(results.size).toBe(20_000)
    for (let n = 0; n < 20_000; n += 997) expect(results.get(n)?.result).toEqual({ ok: true, result: String(n + 1) })
    // Sliced: the worker reported (and returned to its event loop) many times on the way.
    expect(updates.length).toBeGreaterThan(5)
    runtime.dispose()
  }, 60_000)
})

describe('readBatch', () => {
  it('reads well-formed calls and refuses anything else with a clear message', () => {
    expect(readBatch(JSON.stringify([call('add', { a: 1, b: 2 })]))).toEqual({ ok: true, calls: [call('add', { a: 1, b: 2 })] })
    expect(readBatch('[{')).toMatchObject({ ok: false, error: expect.stringContaining('Malformed batch of tool calls') })
    expect(readBatch('{}')).toMatchObject({ ok: false, error: 'Malformed batch of tool calls: not an array.' })
    expect(readBatch(JSON.stringify([{ ...call('add'), arguments: [] }]))).toMatchObject({ ok: false, error: expect.stringContaining('call 0 needs') })
    expect(readBatch(JSON.stringify([{ ...call('add'), timeoutMs: 0 }]))).toMatchObject({ ok: false })
  })
})
