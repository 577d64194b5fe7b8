import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { beforeAll, describe, expect, it } from 'vitest'
import { examples } from '../../examples/index'
import { createRuntime } from '../runtime'
import runtimeSource from 'virtual:toolstep-vm-runtime'
import { createQuickJsRuntime, type QuickJsRuntimeOptions, type VmCrash } from './quickjs-runtime'

let module: QuickJSWASMModule
beforeAll(async () => {
  module = await newQuickJSWASMModuleFromVariant(variant)
})

const header = "import { tool, z } from 'toolstep'\n"
const BOMB = 'const hoard: number[][] = []\n  for (;;) hoard.push(new Array(1e5).fill(hoard.length))'

function make(options: QuickJsRuntimeOptions = {}, vm: QuickJSWASMModule = module) {
  const crashes: VmCrash[] = []
  const runtime = createQuickJsRuntime(vm, runtimeSource, { memoryLimitMb: 32, ...options, onCrash: (crash) => crashes.push(crash) })
  return { runtime, crashes }
}

describe('QuickJS runtime: the browser sandbox VM', () => {
  it('loads tools with zod schemas and runs them, async ones through timers', async () => {
    const { runtime } = make()
    const loaded = runtime.load('tools.ts', header + `export const add = tool({ description: 'Add', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => { await new Promise((r) => setTimeout(r, 5)); return a + b } })\n`)
    expect(loaded).toMatchObject({ ok: true, tools: [{ name: 'add', inputSchema: { type: 'object', required: ['a', 'b'] } }] })
    expect(await runtime.executeTool('add', { a: 2, b: 3 }, 'c1')).toEqual({ ok: true, result: '5' })
    expect(await runtime.executeTool('add', { a: 'x', b: 3 }, 'c1')).toMatchObject({ ok: false, error: { name: 'InvalidArgumentsError' } })
    runtime.dispose()
  })

  it('loads every built-in example as the V8 runtime does', () => {
    for (const example of examples) {
      const { runtime } = make({ memoryLimitMb: 64 })
      const reference = createRuntime()
      expect(runtime.load('tools.ts', example.tools), example.id).toEqual(reference.load('tools.ts', example.tools))
      expect(runtime.load('model.ts', example.model), example.id).toEqual(reference.load('model.ts', example.model))
      runtime.dispose()
    }
  })

  // A bomb leaves its wasm memory grown (it never shrinks), so each gets a module of its own, as each worker has.
  const fresh = () => newQuickJSWASMModuleFromVariant(variant)

  it('a memory bomb at the top level is an out-of-memory error of tools.ts, and the VM reports the crash', async () => {
    const { runtime, crashes } = make({}, await fresh())
    const result = runtime.budget(60_000, () => runtime.load('tools.ts', `${header}{\n  ${BOMB}\n}\n`))
    expect(result).toMatchObject({ ok: false, error: { file: 'tools.ts', message: 'InternalError: out of memory' } })
    expect(crashes).toEqual([expect.objectContaining({ outOfMemory: true, limitMb: 32 })])
  }, 60_000)

  it('a memory bomb in a tool or in the model ends that call with out of memory', async () => {
    const tools = make({}, await fresh())
    tools.runtime.load('tools.ts', `${header}export const hog = tool({ description: '', inputSchema: z.object({}), execute: () => {\n  ${BOMB}\n} })\n`)
    expect(await tools.runtime.budget(60_000, () => tools.runtime.executeTool('hog', {}, 'c1'))).toMatchObject({ ok: false, error: { name: 'InternalError', message: 'out of memory' } })
    expect(tools.crashes).toHaveLength(1)

    const model = make({}, await fresh())
    model.runtime.load('model.ts', `export default async function model() {\n  await null\n  ${BOMB}\n}\n`)
    expect(await model.runtime.budget(60_000, () => model.runtime.callModel({ messages: [], tools: [], step: 0, protocol: 'json' }))).toMatchObject({ ok: false, error: { message: 'out of memory' } })
    expect(model.crashes).toEqual([expect.objectContaining({ outOfMemory: true })])
  }, 120_000)

  // A Map or typed-array bomb can take longer to fill the VM than its budget: stopped at its
  // deadline with the VM nearly full, it is out of memory, not "timed out".
  const holdThenSpin = (arrays: number) => `${header}export const hold = tool({ description: '', inputSchema: z.object({}), execute: () => {\n  const keep: number[][] = []\n  for (let i = 0; i < ${arrays}; i++) keep.push(new Array(1e5).fill(i))\n  for (;;) {}\n} })\n`

  it('a typed-array bomb stops at the memory limit, even when it catches the error, without growing the wasm memory to its maximum', async () => {
    const vm = await fresh()
    const { runtime, crashes } = make({ memoryLimitMb: 64 }, vm)
    const start = vm.getWasmMemory().buffer.byteLength
    runtime.load('tools.ts', `${header}export const hog = tool({ description: '', inputSchema: z.object({}), execute: () => {\n  const blocks: Float64Array[] = []\n  for (;;) { try { blocks.push(new Float64Array(1e6)) } catch {} }\n} })\nexport const fine = tool({ description: '', inputSchema: z.object({}), execute: () => { const bytes = new Uint8Array([1, 2]); return [bytes instanceof Uint8Array, bytes.constructor === Uint8Array, new bytes.constructor(3).length, new Uint8Array(new ArrayBuffer(4)).length].join() } })\n`)
    expect(await runtime.executeTool('fine', {}, 'c0')).toEqual({ ok: true, result: 'true,true,3,4' })
    expect(await runtime.budget(60_000, () => runtime.executeTool('hog', {}, 'c1'))).toMatchObject({ ok: false, error: { name: 'InternalError', message: 'out of memory' } })
    expect(crashes).toEqual([expect.objectContaining({ outOfMemory: true, limitMb: 64 })])
    expect(vm.getWasmMemory().buffer.byteLength - start).toBeLessThan(2 * 64 * 1024 * 1024)
  }, 60_000)

  it('code stopped at its deadline with the VM nearly full is reported out of memory', async () => {
    const { runtime, crashes } = make({ memoryLimitMb: 64 }, await fresh())
    expect(runtime.load('tools.ts', holdThenSpin(50))).toMatchObject({ ok: true })
    expect(await runtime.budget(1000, () => runtime.executeTool('hold', {}, 'c1'))).toMatchObject({ ok: false, error: { name: 'InternalError', message: 'out of memory' } })
    expect(crashes).toEqual([expect.objectContaining({ outOfMemory: true, limitMb: 64 })])
  }, 60_000)

  it('code stopped at its deadline holding less is a timeout that says how much memory it held', async () => {
    const { runtime, crashes } = make({ memoryLimitMb: 64 }, await fresh())
    expect(runtime.load('tools.ts', holdThenSpin(20))).toMatchObject({ ok: true })
    const result = await runtime.budget(1000, () => runtime.executeTool('hold', {}, 'c1'))
    expect(result).toMatchObject({ ok: false, error: { name: 'InterruptedError', message: expect.stringMatching(/without a pause and was interrupted.* while holding \d+ MB of its 64 MB memory limit\. Is there an endless loop\?$/) } })
    expect(crashes).toEqual([])
  }, 60_000)

  it('interrupts an endless loop past its budget, names it and where it is, and keeps the VM usable', async () => {
    const { runtime, crashes } = make()
    const top = runtime.budget(300, () => runtime.load('tools.ts', `${header}let n = 0\nwhile (true) {\n  n++\n}\n`))
    expect(top).toMatchObject({ ok: false, error: { file: 'tools.ts', message: expect.stringMatching(/^tools\.ts's top-level code ran for \d+ ms without a pause and was interrupted.*Is there an endless loop\?$/) } })

    expect(runtime.load('tools.ts', `${header}export const spin = tool({ description: '', inputSchema: z.object({}), execute: async () => {\n  await null\n  for (;;) {}\n} })\nexport const ok = tool({ description: '', inputSchema: z.object({}), execute: () => 'fine' })\n`)).toMatchObject({ ok: true })
    const spun = await runtime.budget(300, () => runtime.executeTool('spin', {}, 'c1'))
    expect(spun).toMatchObject({ ok: false, error: { name: 'InterruptedError', message: expect.stringMatching(/^It ran for \d+ ms without a pause and was interrupted( \(at tools\.ts:\d+:\d+\))?\. Is there an endless loop\?$/) } })
    // A catch cannot swallow the interrupt.
    runtime.load('model.ts', 'export default function model() {\n  for (;;) { try { for (;;) {} } catch {} }\n}\n')
    expect(await runtime.budget(300, () => runtime.callModel({ messages: [], tools: [], step: 0, protocol: 'json' }))).toMatchObject({
      ok: false,
      error: { name: 'InterruptedError', message: expect.stringContaining('ran for') },
    })
    expect(await runtime.executeTool('ok', {}, 'c2')).toEqual({ ok: true, result: 'fine' })
    expect(crashes).toEqual([])
  })

  it('gives user code console, timers, fetch (through the worker), Intl and crypto, but not the host functions', async () => {
    const lines: string[] = []
    const requests: string[] = []
    const fakeFetch = (async (url: string, init?: RequestInit) => {
      requests.push(`${init?.method} ${url} ${String(init?.body)}`)
      return new Response('{"temp":21}', { status: 200, headers: { 'content-type': 'application/json' } })
    }) as typeof fetch
    const { runtime } = make({ fetch: fakeFetch, log: (level, text) => lines.push(`${level}: ${text}`) })
    runtime.load(
      'tools.ts',
      header +
        `export const probe = tool({ description: '', inputSchema: z.object({}), execute: async () => {
  console.log('hello', { a: 1 })
  let ticks = 0
  await new Promise<void>((resolve) => { const id = setInterval(() => { if (++ticks === 3) { clearInterval(id); resolve() } }, 1) })
  const response = await fetch('https://example.test/w', { method: 'POST', body: JSON.stringify({ city: 'Paris' }), headers: { 'X-A': '1' } })
  const data = await response.json()
  return {
    ticks, status: response.status, type: response.headers.get('Content-Type'), data,
    time: new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'short' }).format(new Date(0)),
    badZone: (() => { try { new Intl.DateTimeFormat('en', { timeZone: 'Nowhere/City' }); return 'accepted' } catch (e) { return (e as Error).name } })(),
    uuid: /^[0-9a-f-]{36}$/.test(crypto.randomUUID()),
    host: typeof (globalThis as any).__toolstepHost + typeof (globalThis as any).__toolstepVm,
    self: self === globalThis,
  }
} })\n`,
    )
    const result = await runtime.executeTool('probe', {}, 'c1')
    expect(result.ok && JSON.parse(result.result)).toEqual({
      ticks: 3,
      status: 200,
      type: 'application/json',
      data: { temp: 21 },
      time: '01/01/1970',
      badZone: 'RangeError',
      uuid: true,
      host: 'undefinedundefined',
      self: true,
    })
    expect(lines).toEqual(['log: hello {"a":1}'])
    expect(requests).toEqual(['POST https://example.test/w {"city":"Paris"}'])
  })

  it('runaway recursion in a tool is an error the tool can catch, and the VM goes on serving calls', async () => {
    const { runtime, crashes } = make()
    runtime.load('tools.ts', `${header}let loaded = 'yes'\nexport const deep = tool({ description: '', inputSchema: z.object({}), execute: () => { const f = (n: number): number => f(n + 1) + 1; try { return f(0) } catch (e) { return 'caught ' + (e as Error).name } } })\nexport const spin = tool({ description: '', inputSchema: z.object({}), execute: () => { const f = (n: number): number => f(n + 1) + 1; return f(0) } })\nexport const state = tool({ description: '', inputSchema: z.object({}), execute: () => loaded })\n`)
    expect(await runtime.executeTool('deep', {}, 'c1')).toEqual({ ok: true, result: 'caught InternalError' })
    expect(await runtime.executeTool('spin', {}, 'c2')).toMatchObject({ ok: false, error: { name: 'InternalError', message: expect.stringContaining('stack overflow') } })
    expect(await runtime.executeTool('state', {}, 'c3')).toEqual({ ok: true, result: 'yes' })
    expect(crashes).toEqual([])
  })

  it('maps a thrown error back to its line and column in tools.ts', async () => {
    const { runtime } = make()
    runtime.load('tools.ts', `${header}export const boom = tool({\n  description: '',\n  inputSchema: z.object({}),\n  execute: () => {\n    throw new TypeError('bad')\n  },\n})\n`)
    const result = await runtime.executeTool('boom', {}, 'c1')
    expect(result).toMatchObject({ ok: false, error: { name: 'TypeError', message: 'bad', stack: expect.stringContaining('tools.ts:6:') } })
    expect(runtime.load('model.ts', 'const x = 1\nnull.y\n')).toMatchObject({ ok: false, error: { file: 'model.ts', line: 2 } })
  })
})
