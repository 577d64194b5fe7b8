import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { examples } from '../../examples/index'
import { createRuntime } from '../runtime'
import runtimeSource from 'virtual:toolstep-vm-runtime'
import type { SourceFile } from '../protocol'
import { TOP_LEVEL_AWAIT_MESSAGE as AWAIT_MESSAGE } from '../runtime'
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

  it('the sandbox’s own findings keep their phrase across the VM boundary, as in V8', async () => {
    const { runtime } = make()
    const reference = createRuntime()
    const model = 'export default 42\n'
    expect(runtime.load('model.ts', model)).toEqual(reference.load('model.ts', model))
    expect(runtime.load('model.ts', model)).toMatchObject({ ok: false, error: { phrase: { ns: 'sandbox', key: 'modelExportNotFunction', params: { type: { ns: 'sandbox', key: 'typeNumber' } } } } })
    runtime.load('tools.ts', `${header}export const route = () => 42\n`)
    expect(await runtime.callRoute({ messages: [], tools: [], step: 0, protocol: 'json' })).toMatchObject({
      ok: false,
      error: { message: 'route() must return an array of tool names, not a number.', phrase: { ns: 'sandbox', key: 'routeNotNames' } },
    })
    runtime.dispose()
  })

  it('keeps the conversation inside the VM: each model request carries only the messages added since the last', async () => {
    const { runtime } = make()
    runtime.load('model.ts', `export default function model({ messages, step }) {
  const copy = [...messages]
  messages.push({ role: 'user', content: 'mine' })
  return step + ':' + copy.length + ':' + copy.map((m) => m.content).join(',') + ':' + Array.isArray(messages) + ':' + JSON.stringify(messages).length
}\n`)
    const user = (content: string) => ({ role: 'user' as const, content })
    const wire = (step: number, keep: number, append: { role: 'user'; content: string }[], to: number) => ({
      step,
      protocol: 'json',
      ...(step === 0 ? { tools: [] } : {}),
      conversation: { keep, append },
      parts: [{ from: 0, to }],
    })
    expect(await runtime.callModel(wire(0, 0, [user('a'), user('b')], 2))).toEqual({ ok: true, output: { kind: 'text', raw: expect.stringMatching(/^0:2:a,b:true:\d+$/) } })
    // The model's push changed its own array only: the next request sees a, b, c.
    expect(await runtime.callModel(wire(1, 2, [user('c')], 3))).toMatchObject({ ok: true, output: { kind: 'text', raw: expect.stringMatching(/^1:3:a,b,c:true:/) } })
    expect(await runtime.callModel(wire(2, 9, [], 9))).toMatchObject({ ok: false, error: { message: expect.stringContaining('out of step') } })
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

  it('memory taken by code a load left running is blamed on that load, not on what runs next', async () => {
    // The load returns at once; the async loop goes on in promise jobs and fills the VM after it
    // (the page then named model.ts, loaded next, as the file that ran out of memory).
    const stray = make({}, await fresh())
    const loaded = stray.runtime.budget(60_000, () => stray.runtime.load('tools.ts', `${header};(async () => { const keep: number[][] = []; for (;;) { await null; keep.push(new Array(1e4).fill(1)) } })()\nexport const echo = tool({ description: '', inputSchema: z.object({}), execute: () => 'x' })\n`))
    expect(loaded).toMatchObject({ ok: true })
    expect(stray.crashes).toEqual([expect.objectContaining({ outOfMemory: true, leftBy: { file: 'tools.ts', after: 'after its top-level code ended' } })])

    // A bomb in the load itself is the load's, with no leftBy.
    const own = make({}, await fresh())
    own.runtime.budget(60_000, () => own.runtime.load('tools.ts', `${header}{\n  ${BOMB}\n}\n`))
    expect(own.crashes).toEqual([expect.not.objectContaining({ leftBy: expect.anything() })])
  }, 120_000)

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

  // QuickJS polls its interrupt handler only while bytecode runs, never inside a builtin's own loop.
  const oneTool = (body: string) => `${header}export const t = tool({ description: '', inputSchema: z.object({}), execute: () => {\n  ${body}\n} })\n`

  /** Runs `body` as a tool in a fresh VM (32 MB limit), expects it out of memory, and returns how far the wasm memory grew (bytes). */
  async function outOfMemoryGrowth(body: string): Promise<number> {
    const vm = await fresh()
    const { runtime, crashes } = make({}, vm)
    const start = vm.getWasmMemory().buffer.byteLength
    runtime.load('tools.ts', oneTool(body))
    expect(await runtime.budget(60_000, () => runtime.executeTool('t', {}, 'c1')), body).toMatchObject({ ok: false, error: { name: 'InternalError', message: 'out of memory' } })
    expect(crashes, body).toEqual([expect.objectContaining({ outOfMemory: true, limitMb: 32 })])
    return vm.getWasmMemory().buffer.byteLength - start
  }

  it('a join, toString or toLocaleString of a huge sparse array is out of memory at once, before it writes a byte', async () => {
    for (const body of ['return new Array(3e8).join().length', 'return String(new Array(3e8)).length', 'return `${new Array(1e8)}`.length', 'return new Array(3e8).toLocaleString().length']) {
      // Checked up front: the VM did not fill its memory first.
      expect(await outOfMemoryGrowth(body), body).toBeLessThan(4 * 1024 * 1024)
    }
  }, 120_000)

  it('a join or JSON.stringify that runs long without allocating much stops at its deadline like a loop', async () => {
    const { runtime, crashes } = make({ memoryLimitMb: 64 })
    runtime.load(
      'tools.ts',
      `${header}export const empty = tool({ description: '', inputSchema: z.object({}), execute: () => new Array(3e8).join('').length })
export const shared = tool({ description: '', inputSchema: z.object({}), execute: () => { let o: unknown = [1]; for (let i = 0; i < 40; i++) o = [o, o]; return JSON.stringify(o).length } })
export const blanks = tool({ description: '', inputSchema: z.object({}), execute: () => { const wide: Record<string, undefined> = {}; for (let i = 0; i < 1e5; i++) wide['k' + i] = undefined; return JSON.stringify(new Array(1e5).fill(wide)).length } })
export const ok = tool({ description: '', inputSchema: z.object({}), execute: () => 'fine' })
`,
    )
    for (const name of ['empty', 'shared', 'blanks']) {
      expect(await runtime.budget(500, () => runtime.executeTool(name, {}, name)), name).toMatchObject({ ok: false, error: { name: 'InterruptedError', message: expect.stringContaining('without a pause and was interrupted') } })
    }
    expect(await runtime.executeTool('ok', {}, 'c4')).toEqual({ ok: true, result: 'fine' })
    expect(crashes).toEqual([])
  }, 120_000)

  it('builtins that allocate in their own loop (split, Array.from, spread of a string) stop at the memory limit: the wasm memory never grows past it', async () => {
    for (const body of ['return "x".repeat(2e7).split("").length', 'return Array.from("x".repeat(2e7)).length', 'return [..."y".repeat(2e7)].length', 'const keep: string[] = []\n  for (;;) keep.push("x".repeat(1e6) + keep.length)']) {
      // The limit and an eighth more, kept so QuickJS can still make its error.
      expect(await outOfMemoryGrowth(body), body).toBeLessThanOrEqual(36 * 1024 * 1024)
    }
  }, 120_000)

  it('join, toLocaleString and JSON.stringify give the same text as V8, for short, long and sparse arrays and array-likes', async () => {
    const { runtime } = make({ memoryLimitMb: 64 })
    const probe = `const sparse: unknown[] = [1, , 3, null, undefined, 'x']
  const long = Array.from({ length: 150000 }, (_, i) => (i % 7 ? i : i % 2 ? null : undefined))
  const holes = new Array(140000); holes[5] = 'a'; holes[70000] = 'b'; holes[139999] = 'c'
  const like = { length: 4, 0: 'a', 2: 'c', 3: { toString: () => 'd' } }
  const bigLike = { length: 70000, 69999: 'end' }
  const proto = Object.create(['p0', 'p1']); proto.length = 3
  return [
    sparse.join(), sparse.join(' | '), String(sparse), sparse.toString(), \`\${sparse}\`, sparse.join(undefined), sparse.join(null as never),
    long.join().length, long.join('ab'), holes.join('-'), String(holes).length,
    Array.prototype.join.call(like, '/'), Array.prototype.join.call(bigLike).length, Array.prototype.join.call(bigLike).slice(-6), Array.prototype.join.call('abc', '.'),
    Array.prototype.join.call(proto, ';'),
    [1.5, 'x', null, [2, 3]].toLocaleString(), long.toLocaleString() === long.map((v) => (v == null ? '' : v.toLocaleString())).join(),
    new Uint8Array([1, 2, 3]).join(), new Float64Array([0.5, 2]).join(' '), String(new Int16Array([7, -8])),
    JSON.stringify({ a: [1, { b: 2 }], c: undefined, d: () => 1, e: new Date(0), f: { toJSON: () => 'j' } }),
    JSON.stringify([undefined, () => 0, 'é\u2028']), JSON.stringify({ a: 1, b: [2] }, null, 2), JSON.stringify({ a: 1, b: 2, c: 3 }, ['c', 'a']),
    JSON.stringify({ a: 1, b: 'x' }, (key, value) => (typeof value === 'number' ? value * 10 : value)), String(JSON.stringify(undefined)), JSON.stringify('s'),
    (() => { try { Array.prototype.join.call(null) } catch (e) { return (e as Error).name } })(),
    (() => { try { (Uint8Array.prototype.join as (this: unknown) => string).call([1]) } catch (e) { return (e as Error).name } })(),
    (() => { try { const c: Record<string, unknown> = {}; c.self = c; return JSON.stringify(c) } catch (e) { return (e as Error).name } })(),
    Array.prototype.join.name, Array.prototype.join.length, JSON.stringify.name, JSON.stringify.length, Object.keys(Array.prototype).length,
  ]`
    runtime.load('tools.ts', oneTool(probe))
    const reference = new Function(probe.replace(/: (unknown\[\]|Record<string, unknown>)/g, '').replace(/ as \(this: unknown\) => string/g, '').replace(/ as (Error|never)/g, '')) as () => unknown
    const result = await runtime.executeTool('t', {}, 'c1')
    expect(result.ok && JSON.parse(result.result)).toEqual(JSON.parse(JSON.stringify(reference())))
  })

  // Past 65 536 elements the array builtins run in bytecode (see guardSparseLoops), and must still give V8's answers.
  it('the array builtins give the same answers as V8 on long sparse arrays, array-likes and short arrays', async () => {
    const { runtime } = make({ memoryLimitMb: 64 })
    const probe = `const N = 70000
  const sparse = () => { const a: unknown[] = []; a.length = N; a[3] = 'c'; a[10] = NaN; a[500] = 7; a[69998] = 'z'; a[40000] = undefined; a[40001] = 2; return a }
  const like = () => ({ length: N, 5: 'x', 69990: 'y', 200: 3 }) as unknown as unknown[]
  const dense = () => Array.from({ length: N }, (_, i) => (i * 7919) % 1000)
  const view = (a: unknown) => { const o = a as Record<string, unknown> & { length: number }; const keys = Object.keys(o); return [o.length, keys.length, [...keys.slice(0, 30), ...keys.slice(-5)].map((k) => k + ':' + String(o[k])).join(';')] }
  const out: unknown[] = []
  const each = (make: () => unknown[]) => {
    const a = make()
    const p = Array.prototype
    out.push(p.indexOf.call(a, 7), p.indexOf.call(a, undefined), p.indexOf.call(a, 'z', -5), p.indexOf.call(a, 7, 600), p.lastIndexOf.call(a, 7), p.lastIndexOf.call(a, 'c', 2), p.lastIndexOf.call(a, 'z', -1))
    out.push(p.includes.call(a, NaN), p.includes.call(a, undefined), p.includes.call(a, 'z', 69999), p.includes.call(a, 'q'))
    const seen: unknown[] = []
    p.forEach.call(a, (v, i) => { seen.push(i + '=' + String(v)) })
    out.push(seen.slice(0, 8).join(), seen.length, p.every.call(a, (v) => v !== 'q'), p.some.call(a, (v) => v === 'z'), p.some.call(a, () => false))
    out.push(view(p.map.call(a, (v, i) => String(v) + i)).join('|').slice(0, 300), p.filter.call(a, (v) => v !== 7).slice(0, 10).join(), p.filter.call(a, () => true).length)
    const fold = (s: unknown, v: unknown, i: number) => (String(s).length > 80 ? s : String(s) + String(v) + i)
    out.push(p.reduce.call(a, fold as never), p.reduceRight.call(a, fold as never, '>'))
    out.push(view(p.slice.call(a, 2, 69999)).join('|').slice(0, 300), view(p.slice.call(a, -3)).join('|'))
    out.push(view(p.reverse.call(make())).join('|').slice(0, 300), view(p.fill.call(make(), 0, 69995)).join('|').slice(0, 300).length, view(p.copyWithin.call(make(), 1, 0, 69000)).join('|').slice(0, 300), view(p.copyWithin.call(make(), 0, 2)).join('|').slice(0, 300))
    const shifted = make(); out.push(String(p.shift.call(shifted)), view(shifted).join('|').slice(0, 300))
    const unshifted = make(); out.push(p.unshift.call(unshifted, 'u', 'v'), view(unshifted).join('|').slice(0, 300))
    const spliced = make(); out.push(view(p.splice.call(spliced, 2, 600, 'w')).join('|'), view(spliced).join('|').slice(0, 300))
    const cut = make(); out.push(view(p.splice.call(cut, -2)).join('|'), view(cut).join('|').slice(0, 300))
    out.push(view(p.sort.call(make())).join('|').slice(0, 300), view(p.sort.call(make(), (x, y) => (String(y) < String(x) ? -1 : String(y) > String(x) ? 1 : 0))).join('|').slice(0, 300))
    out.push(view(p.concat.call([0], a, [1], 2)).join('|').slice(0, 300), view([[a], [[1, [2]]], 3].flat(2)).join('|').slice(0, 300), view(p.flatMap.call(a, (v) => [v, [v]])).join('|').slice(0, 300))
  }
  each(sparse)
  each(like)
  each(dense)
  each(() => [3, , 1, undefined, 'b', 2, 'a'])
  const stable = Array.from({ length: N }, (_, i) => ({ k: i % 3, i })).sort((x, y) => x.k - y.k)
  out.push(stable.every((v, i, all) => i === 0 || all[i - 1].k < v.k || all[i - 1].i < v.i))
  out.push([1, [2, [3, [4]]]].flat(Infinity).join(), [[1], [2]].flat(0).length, [1, 2].flatMap((v) => [v, v * 2]).join())
  out.push(...[() => Array.prototype.indexOf.call(null as never, 1), () => [].forEach.call(like(), 5 as never), () => Array.prototype.reduce.call({ length: N }, (s: unknown) => s), () => [].sort.call(like(), 1 as never), () => [].flatMap(5 as never)].map((f) => { try { f(); return 'no error' } catch (e) { return (e as Error).name } }))
  out.push(Array.prototype.indexOf.length, Array.prototype.concat.length, Array.prototype.flat.name, Object.keys(Array.prototype).length)
  return out`
    runtime.load('tools.ts', oneTool(probe))
    const reference = new Function(probe.replace(/: unknown\[\]/g, '').replace(/ as unknown as unknown\[\]/g, '').replace(/ as Record<string, unknown> & \{ length: number \}/g, '').replace(/ as never/g, '').replace(/\(e as Error\)/g, 'e').replace(/\(s: unknown, v: unknown, i: number\)/g, '(s, v, i)').replace(/\(s: unknown\)/g, '(s)').replace(/\(a: unknown\)/g, '(a)').replace(/\(make: \(\) => unknown\[\]\)/g, '(make)')) as () => unknown
    const result = await runtime.budget(60_000, () => runtime.executeTool('t', {}, 'c1'))
    expect(result.ok && JSON.parse(result.result)).toEqual(JSON.parse(JSON.stringify(reference())))
  }, 60_000)

  it('array builtins that walk every index of a huge sparse array stop at the call\'s timeout, and the next call runs', async () => {
    const { runtime, crashes } = make({ memoryLimitMb: 64 })
    const calls = ['a.indexOf(1)', 'a.lastIndexOf(1)', 'a.includes(1)', 'a.reverse()', 'a.flat()', '[a].flat()', 'a.sort()', 'a.forEach(() => 0)', 'a.map((v) => v)', 'a.filter(() => true)', 'a.every(() => true)', 'a.some(() => false)', 'a.reduce((s) => s, 0)', 'a.slice()', 'a.shift()', 'a.unshift(0)', 'a.splice(0, 1)', 'a.copyWithin(0, 1)', '[].concat(a)', 'a.flatMap((v) => v)']
    runtime.load('tools.ts', `${header}export const huge = tool({ description: '', inputSchema: z.object({ call: z.string() }), execute: ({ call }) => { const a: unknown[] = []; a.length = 3e8; a[5] = 5; return String(new Function('a', 'return ' + call)(a)) } })
export const ok = tool({ description: '', inputSchema: z.object({}), execute: () => 'fine' })
`)
    for (const call of calls) {
      expect(await runtime.budget(300, () => runtime.executeTool('huge', { call }, call)), call).toMatchObject({ ok: false, error: { name: 'InterruptedError', message: expect.stringContaining('without a pause and was interrupted') } })
    }
    expect(await runtime.executeTool('ok', {}, 'c1')).toEqual({ ok: true, result: 'fine' })
    expect(crashes).toEqual([])
    // fill stays native up to 4M elements and writes every index: a huge one fills the VM's memory
    // as fast as it loops, and ends out of memory or at its deadline, whichever comes first.
    const filled = await runtime.budget(300, () => runtime.executeTool('huge', { call: 'a.fill(0)' }, 'fill'))
    expect(filled).toMatchObject({ ok: false, error: { name: expect.stringMatching(/^(InternalError|InterruptedError)$/) } })
    expect(JSON.stringify(filled)).toMatch(/out of memory|without a pause and was interrupted/)
  }, 120_000)

  it('a long typed array sorts as in V8 (NaN last, -0 before 0, bigints), and one too long for its budget stops at it', async () => {
    const { runtime, crashes } = make({ memoryLimitMb: 256 })
    const probe = `const fill = (u: Float64Array | Int32Array) => { for (let i = 0; i < u.length; i++) u[i] = ((i * 7919) % 1000003) - 500000; return u }
  const f = fill(new Float64Array(2.2e6)) as Float64Array
  f[5] = NaN; f[77] = -0; f[78] = 0; f[2e6] = NaN; f[1e6] = -0; f[9] = Infinity; f[10] = -Infinity
  f.sort()
  const sample = (u: ArrayLike<unknown>) => { const out: string[] = []; for (let i = 0; i < u.length; i += 997) out.push(Object.is(u[i], -0) ? '-0' : String(u[i])); for (let i = u.length - 4; i < u.length; i++) out.push(String(u[i])); return out.join() }
  const i32 = fill(new Int32Array(1.5e6)) as Int32Array
  const big = new BigInt64Array(1.2e6); for (let i = 0; i < big.length; i++) big[i] = BigInt((i * 7919) % 1000003) * (i % 2 ? 1n : -1n)
  return [sample(f), [f[0], f[1], Object.is(f[500000], -0)].join(), sample(i32.sort()), sample(big.sort()), sample(new Float64Array([3, -0, NaN, 0, 1]).sort()), sample(new Int32Array(2e6).fill(3).sort((a, b) => b - a))]`
    runtime.load('tools.ts', `${oneTool(probe)}export const huge = tool({ description: '', inputSchema: z.object({}), execute: () => { const u = new Float64Array(1 << 23); for (let i = 0; i < 65536; i++) u[i] = (i * 7919) % 1000003; for (let n = 65536; n < u.length; n *= 2) u.copyWithin(n, 0, n); return u.sort()[0] } })\n`)
    const reference = new Function(probe.replace(/: (Float64Array \| Int32Array|ArrayLike<unknown>|string\[\])/g, '').replace(/ as (Float64Array|Int32Array)/g, '')) as () => unknown
    const result = await runtime.budget(60_000, () => runtime.executeTool('t', {}, 'c1'))
    expect(result.ok && JSON.parse(result.result)).toEqual(reference())
    expect(await runtime.budget(500, () => runtime.executeTool('huge', {}, 'c2'))).toMatchObject({ ok: false, error: { name: 'InterruptedError', message: expect.stringContaining('without a pause and was interrupted') } })
    expect(crashes).toEqual([])
  }, 60_000)

  it('interrupts an endless loop past its budget, names it and where it is, and keeps the VM usable', async () => {
    const { runtime, crashes } = make()
    const top = runtime.budget(300, () => runtime.load('tools.ts', `${header}let n = 0\nwhile (true) {\n  n++\n}\n`))
    expect(top).toMatchObject({ ok: false, error: { file: 'tools.ts', message: expect.stringMatching(/^tools\.ts's top-level code ran for \d+ ms without a pause and was interrupted.*Is there an endless loop\?$/) } })

    expect(runtime.load('tools.ts', `${header}export const spin = tool({ description: '', inputSchema: z.object({}), execute: async () => {\n  await null\n  for (;;) {}\n} })\nexport const ok = tool({ description: '', inputSchema: z.object({}), execute: () => 'fine' })\n`)).toMatchObject({ ok: true })
    const spun = await runtime.budget(300, () => runtime.executeTool('spin', {}, 'c1'))
    expect(spun).toMatchObject({ ok: false, error: { name: 'InterruptedError', message: expect.stringMatching(/^It ran without a pause and was interrupted( \(at tools\.ts:\d+:\d+\))?\. Is there an endless loop\?$/) } })
    // A catch cannot swallow the interrupt.
    runtime.load('model.ts', 'export default function model() {\n  for (;;) { try { for (;;) {} } catch {} }\n}\n')
    expect(await runtime.budget(300, () => runtime.callModel({ messages: [], tools: [], step: 0, protocol: 'json' }))).toMatchObject({
      ok: false,
      // The host says for how long; the runtime only says how it was stopped.
      error: { name: 'InterruptedError', message: expect.stringMatching(/^It ran without a pause and was interrupted/) },
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

  it('JSON.stringify of a value nested past 1000 levels, by user code or of a tool result, is an error of that call alone, in a batch with others', async () => {
    const { runtime, crashes } = make({ memoryLimitMb: 64 })
    runtime.load(
      'tools.ts',
      `${header}const nest = (levels: number) => { let a: unknown[] = []; for (let i = 0; i < levels; i++) a = [a]; return a }
export const fits = tool({ description: '', inputSchema: z.object({}), execute: () => JSON.stringify(nest(999)).length })
export const user = tool({ description: '', inputSchema: z.object({}), execute: () => { try { return JSON.stringify(nest(1e5)) } catch (e) { return (e as Error).name + ': ' + (e as Error).message } } })
export const returned = tool({ description: '', inputSchema: z.object({}), execute: () => nest(1e5) })
export const replaced = tool({ description: '', inputSchema: z.object({}), execute: () => JSON.stringify(nest(1e5), (key, value) => value) })
export const ok = tool({ description: '', inputSchema: z.object({}), execute: async () => { await null; return 'fine' } })
`,
    )
    const names = ['ok', 'fits', 'user', 'returned', 'replaced', 'ok']
    const results = await new Promise<Map<number, unknown>>((resolve) => {
      const settled = new Map<number, unknown>()
      runtime.startTools?.(
        names.map((name, key) => ({ key, name, arguments: {}, callId: `c${key}`, timeoutMs: 60_000 })),
        (key, result) => {
          settled.set(key, result)
          if (settled.size === names.length) resolve(settled)
        },
      )
    })
    const deep = 'JSON.stringify: the value is nested deeper than 1000 levels.'
    expect(results.get(0)).toEqual({ ok: true, result: 'fine' })
    expect(results.get(1)).toEqual({ ok: true, result: '2000' })
    expect(results.get(2)).toEqual({ ok: true, result: `RangeError: ${deep}` })
    expect(results.get(3)).toMatchObject({ ok: false, error: { message: expect.stringContaining(deep) } })
    expect(results.get(4)).toMatchObject({ ok: false, error: { name: 'RangeError', message: deep } })
    expect(results.get(5)).toEqual({ ok: true, result: 'fine' })
    expect(crashes).toEqual([])
  })

  describe('timers and fetches belong to the call that starts them', () => {
    afterEach(() => {
      vi.useRealTimers()
    })

    it('a timer or interval left behind by a call never fires after it, and a fetch it left is not delivered', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      const lines: string[] = []
      let answer: (() => void) | undefined
      const slowFetch = (() => new Promise<Response>((resolve) => (answer = () => resolve(new Response('late'))))) as typeof fetch
      const { runtime } = make({ log: (_level, text) => lines.push(text), fetch: slowFetch })
      runtime.load(
        'tools.ts',
        `${header}setTimeout(() => console.log('top-level timer'), 10)
export const leave = tool({ description: '', inputSchema: z.object({}), execute: () => {
  setTimeout(() => console.log('timer after the call'), 10)
  setInterval(() => console.log('interval after the call'), 5)
  void fetch('https://example.test/').then(() => console.log('fetch after the call'))
  return 'left'
} })
export const waits = tool({ description: '', inputSchema: z.object({}), execute: async () => { await new Promise((resolve) => setTimeout(resolve, 20)); return 'waited' } })\n`,
      )
      expect(await runtime.executeTool('leave', {}, 'c1')).toEqual({ ok: true, result: 'left' })
      await vi.advanceTimersByTimeAsync(1000)
      answer?.()
      await vi.advanceTimersByTimeAsync(1000)
      expect(lines).toEqual([])
      // Timers inside a call still run.
      const waited = runtime.executeTool('waits', {}, 'c2')
      await vi.advanceTimersByTimeAsync(30)
      expect(await waited).toEqual({ ok: true, result: 'waited' })
      expect(vi.getTimerCount()).toBe(0)
    })

    it('a fetched body larger than the memory limit is refused while it is read, before the worker holds it', async () => {
      let pulled = 0
      const endless = (async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              pulled++
              controller.enqueue(new Uint8Array(1024 * 1024).fill(120))
            },
          }),
        )) as typeof fetch
      const { runtime } = make({ fetch: endless })
      runtime.load('tools.ts', oneTool('return fetch("https://example.test/huge").then((r) => r.text()).then((t) => t.length, (e) => e.name + ": " + e.message)'))
      expect(await runtime.executeTool('t', {}, 'c1')).toEqual({ ok: true, result: 'TypeError: fetch failed: the response body is larger than the sandbox memory limit (32 MB)' })
      expect(pulled).toBeLessThan(40)
    })

    it('a flood of timers is refused past the limit, inside the call', async () => {
      const { runtime } = make()
      runtime.load('tools.ts', oneTool('for (let i = 0; i < 20000; i++) setTimeout(() => undefined, 1e9)\n  return "all set"'))
      expect(await runtime.executeTool('t', {}, 'c1')).toMatchObject({ ok: false, error: { name: 'RangeError', message: 'Too many timers: at most 10000 may wait at once in the sandbox.' } })
    })
  })

  it('runaway recursion in model.ts, at the top level of either file, or in one tool of a batch is a stack overflow there alone', async () => {
    const { runtime, crashes } = make()
    const recurse = 'const f = (n: number): number => f(n + 1) + 1\n'
    expect(runtime.load('model.ts', `${recurse}f(0)\nexport default function model() { return 'never' }\n`)).toMatchObject({ ok: false, error: { file: 'model.ts', message: expect.stringContaining('stack overflow') } })
    expect(runtime.load('tools.ts', `${header}${recurse}f(0)\n`)).toMatchObject({ ok: false, error: { file: 'tools.ts', message: expect.stringContaining('stack overflow') } })
    runtime.load('model.ts', `${recurse}export default function model() { return String(f(0)) }\n`)
    expect(await runtime.callModel({ messages: [], tools: [], step: 0, protocol: 'json' })).toMatchObject({ ok: false, error: { name: 'InternalError', message: 'stack overflow' } })
    runtime.load('tools.ts', `${header}${recurse}export const deep = tool({ description: '', inputSchema: z.object({}), execute: async () => { await null; return f(0) } })\nexport const ok = tool({ description: '', inputSchema: z.object({}), execute: async () => { await null; return 'fine' } })\n`)
    const results = await new Promise<unknown[]>((resolve) => {
      const settled: unknown[] = []
      runtime.startTools?.(['ok', 'deep', 'ok'].map((name, key) => ({ key, name, arguments: {}, callId: `c${key}`, timeoutMs: 5000 })), (key, result) => {
        settled[key] = result
        if (settled.filter(Boolean).length === 3) resolve(settled)
      })
    })
    expect(results).toEqual([{ ok: true, result: 'fine' }, expect.objectContaining({ ok: false, error: expect.objectContaining({ name: 'InternalError', message: 'stack overflow' }) }), { ok: true, result: 'fine' }])
    expect(crashes).toEqual([])
  })

  it('runaway recursion in a tool is an error the tool can catch, and the VM goes on serving calls', async () => {
    const { runtime, crashes } = make()
    runtime.load('tools.ts', `${header}let loaded = 'yes'\nexport const deep = tool({ description: '', inputSchema: z.object({}), execute: () => { const f = (n: number): number => f(n + 1) + 1; try { return f(0) } catch (e) { return 'caught ' + (e as Error).name } } })\nexport const spin = tool({ description: '', inputSchema: z.object({}), execute: () => { const f = (n: number): number => f(n + 1) + 1; return f(0) } })\nexport const state = tool({ description: '', inputSchema: z.object({}), execute: () => loaded })\n`)
    expect(await runtime.executeTool('deep', {}, 'c1')).toEqual({ ok: true, result: 'caught InternalError' })
    expect(await runtime.executeTool('spin', {}, 'c2')).toMatchObject({ ok: false, error: { name: 'InternalError', message: expect.stringContaining('stack overflow') } })
    expect(await runtime.executeTool('state', {}, 'c3')).toEqual({ ok: true, result: 'yes' })
    expect(crashes).toEqual([])
  })

  it('eval, new Function and the other constructors of source nested too deeply throw a SyntaxError the tool catches; the VM lives on', async () => {
    const { runtime, crashes } = make()
    const deep = [
      `eval('('.repeat(800) + '1' + ')'.repeat(800))`,
      `(0, eval)('['.repeat(800) + ']'.repeat(800))`,
      `new Function('return ' + '(function(){return '.repeat(400) + '1' + '})'.repeat(400))`,
      `Function('a', '{'.repeat(300) + '[' .repeat(300))`,
      `new ((async () => {}).constructor as FunctionConstructor)('return ' + '\`\${'.repeat(600) + '1' + '}\`'.repeat(600))`,
      `new ((function* () {}).constructor as FunctionConstructor)('yield ' + '(()=>'.repeat(700) + '1' + ')'.repeat(700))`,
    ]
    runtime.load(
      'tools.ts',
      `${header}const sources = [${deep.map((code) => `() => ${code}`).join(', ')}]
export const deep = tool({ description: '', inputSchema: z.object({ index: z.number() }), execute: ({ index }) => { try { sources[index](); return 'parsed' } catch (e) { return (e as Error).name + ': ' + (e as Error).message } } })
export const fine = tool({ description: '', inputSchema: z.object({}), execute: () => [eval('1 + 2'), eval(5), new Function('a', 'b', 'return a * b')(3, 4), Function('return 7')(), eval('('.repeat(190) + '8' + ')'.repeat(190)), (() => 0) instanceof Function, Function.prototype.constructor === Function, (async () => 0).constructor.name, (function () {}).constructor === Function].join() })
`,
    )
    for (const [index, code] of deep.entries()) {
      expect(await runtime.executeTool('deep', { index }, `c${index}`), code).toMatchObject({ ok: true, result: expect.stringMatching(/^SyntaxError: nested too deeply: \d+ levels, limit 192$/) })
    }
    expect(await runtime.executeTool('fine', {}, 'c9')).toEqual({ ok: true, result: '3,5,12,7,8,true,true,AsyncFunction,true' })
    expect(crashes).toEqual([])
  })

  it('tools.ts, model.ts or a code block nested too deeply is a SyntaxError of that file, and the VM lives on', async () => {
    const { runtime, crashes } = make()
    const deep = `export const nested = ${'['.repeat(700)}${']'.repeat(700)}\n`
    expect(runtime.load('tools.ts', `${header}${deep}`)).toMatchObject({ ok: false, error: { file: 'tools.ts', message: expect.stringMatching(/^SyntaxError: nested too deeply: \d+ levels, limit 192$/) } })
    expect(runtime.load('model.ts', `${deep}export default function model() { return 'x' }\n`)).toMatchObject({ ok: false, error: { file: 'model.ts', message: expect.stringContaining('nested too deeply') } })
    expect(await runtime.runCode(`return ${'('.repeat(700)}1${')'.repeat(700)}`, { maxOutputChars: 1000 })).toMatchObject({ ok: false, error: expect.stringContaining('nested too deeply') })
    expect(runtime.load('tools.ts', `${header}export const ok = tool({ description: '', inputSchema: z.object({}), execute: () => JSON.stringify(JSON.parse('['.repeat(100) + ']'.repeat(100))).length })\n`)).toMatchObject({ ok: true })
    expect(await runtime.executeTool('ok', {}, 'c1')).toEqual({ ok: true, result: '200' })
    expect(crashes).toEqual([])
  })

  it('JSON.parse and RegExp of deeply nested input are errors the code catches (QuickJS checks those itself)', async () => {
    const { runtime, crashes } = make()
    runtime.load('tools.ts', oneTool(`const tries = [() => JSON.parse('['.repeat(1e5) + ']'.repeat(1e5)), () => JSON.parse('{"a":'.repeat(1e5) + '1' + '}'.repeat(1e5)), () => new RegExp('(?:'.repeat(2e4) + 'a' + ')'.repeat(2e4)), () => new RegExp('('.repeat(5000) + 'a' + ')'.repeat(5000))]
  return tries.map((f) => { try { f(); return 'ok' } catch (e) { return (e as Error).name } }).join()`))
    expect(await runtime.executeTool('t', {}, 'c1')).toEqual({ ok: true, result: 'SyntaxError,SyntaxError,SyntaxError,SyntaxError' })
    expect(crashes).toEqual([])
  })

  it('maps a thrown error back to its line and column in tools.ts', async () => {
    const { runtime } = make()
    runtime.load('tools.ts', `${header}export const boom = tool({\n  description: '',\n  inputSchema: z.object({}),\n  execute: () => {\n    throw new TypeError('bad')\n  },\n})\n`)
    const result = await runtime.executeTool('boom', {}, 'c1')
    expect(result).toMatchObject({ ok: false, error: { name: 'TypeError', message: 'bad', stack: expect.stringContaining('tools.ts:6:') } })
    expect(runtime.load('model.ts', 'const x = 1\nnull.y\n')).toMatchObject({ ok: false, error: { file: 'model.ts', line: 2 } })
  })

  it('reports top-level await in tools.ts and model.ts at its own line and column, as the V8 runtime does', () => {
    const { runtime } = make()
    const reference = createRuntime()
    const cases: [SourceFile, string, number, number][] = [
      ['tools.ts', 'const cfg = await Promise.resolve(1)\n', 1, 13],
      ['model.ts', "import { z } from 'zod'\nconst cfg = await Promise.resolve(z)\nexport default function model() { return cfg?.string ?? 'x' }\n", 2, 13],
      ['model.ts', "const cfg = await Promise.resolve(1)\nexport default function model() { return cfg ?? 'x' }\n", 1, 13],
      ['tools.ts', `${header}\nfor await (const x of []) console.log(x)\n`, 3, 1],
      // Parsed by a script as a call of a function named `await`: the load fails at run time, with a ReferenceError.
      ['tools.ts', 'const cfg = await (Promise.resolve(1))\n', 1, 13],
      ['model.ts', "const a = 1\nconst cfg = await(a)\nexport default function model() { return 'x' }\n", 2, 13],
    ]
    for (const [file, source, line, column] of cases) {
      const expected = { ok: false, error: { file, line, column, message: AWAIT_MESSAGE } }
      expect(runtime.load(file, source), source).toEqual(expected)
      expect(reference.load(file, source), source).toEqual(expected)
    }
    runtime.dispose()
  })

  it('maps a syntax error on line 1 past the code the compiler puts before it', () => {
    const { runtime } = make()
    const reference = createRuntime()
    // sucrase accepts the redeclaration; acorn finds it, in sucrase's output, whose line 1 starts with helpers.
    const source = "let q = 1; let q = 2\nexport default function model() { return q ?? 'x' }\n"
    const expected = { ok: false, error: { file: 'model.ts', line: 1, column: 16, message: expect.stringContaining('SyntaxError') } }
    expect(runtime.load('model.ts', source)).toEqual(expected)
    expect(reference.load('model.ts', source)).toEqual(expected)
    runtime.dispose()
  })
})
