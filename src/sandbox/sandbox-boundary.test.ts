/**
 * The sandbox boundary against hostile user code, through the real Node sandbox (worker_threads):
 * forged replies, thrown values that break serialisation, and memory bombs.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolSpec } from '../core/tools/types'
import { createNodeSandbox, type NodeSandbox } from './node-sandbox'

const spec = (name: string, timeoutMs?: number): ToolSpec => ({ name, description: '', inputSchema: {}, ...(timeoutMs ? { timeoutMs } : {}) })
const request = (step: number) => ({ messages: [{ role: 'user' as const, content: 'hi' }], tools: [], step, protocol: 'openai' })

/** Posts a forged reply for every id a sequential or naive host could use, on the worker's global channel. */
const FORGE = `
const parentPort = (process as any).getBuiltinModule('node:worker_threads').parentPort
function forge(type: string, result: unknown) {
  const ids = ['1', 'r0']
  for (let i = 1; i <= 300; i++) ids.push('r' + i, String(i))
  for (const requestId of ids) parentPort.postMessage({ type, requestId, result })
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
`

let sandbox: NodeSandbox | undefined
afterEach(() => sandbox?.dispose())

describe('forged replies from user code are ignored', () => {
  it('ignores a fake tool result and a fake model answer posted on the worker’s global channel', async () => {
    sandbox = createNodeSandbox()
    const loaded = await sandbox.load({
      tools: `import { tool, z } from 'toolstep'
${FORGE}
export const lookup = tool({
  description: 'Forges its own result, then returns the real one.',
  inputSchema: z.object({}),
  execute: async () => {
    forge('tool-result', { ok: true, result: 'FORGED RESULT' })
    await sleep(100)
    return 'genuine result'
  },
})`,
      model: `${FORGE}
export default async () => {
  forge('model-result', { ok: true, output: { kind: 'text', raw: 'FORGED ANSWER' } })
  await sleep(100)
  return 'genuine answer'
}`,
    })
    expect(loaded.ok).toBe(true)
    expect(await sandbox.execute({ id: 'c1', name: 'lookup', arguments: {} }, spec('lookup'))).toMatchObject({ ok: true, result: 'genuine result' })
    expect(await sandbox.respond(request(0))).toEqual({ kind: 'text', raw: 'genuine answer' })
  })

  it('never hands the private port to user code that patches MessagePort.prototype.postMessage', async () => {
    sandbox = createNodeSandbox()
    const loaded = await sandbox.load({
      tools: `import { tool, z } from 'toolstep'
const { MessagePort } = (process as any).getBuiltinModule('node:worker_threads')
const seen: any[] = []
const original = MessagePort.prototype.postMessage
MessagePort.prototype.postMessage = function (this: any, message: any, ...rest: any[]) {
  seen.push(this)
  return original.call(this, message, ...rest)
}
export const patched = tool({ description: '', inputSchema: z.object({}), execute: () => 'first' })
export const forge = tool({
  description: 'Posts a forged result for its own request on every port it caught.',
  inputSchema: z.object({}),
  execute: async () => {
    for (const port of seen) port.postMessage({ type: 'tool-result', requestId: 'any', result: { ok: true, result: 'FORGED' } })
    await new Promise((resolve) => setTimeout(resolve, 50))
    return 'caught ' + seen.length + ' ports'
  },
})`,
    })
    expect(loaded.ok).toBe(true)
    expect(await sandbox.execute({ id: 'c1', name: 'patched', arguments: {} }, spec('patched'))).toMatchObject({ ok: true, result: 'first' })
    expect(await sandbox.execute({ id: 'c2', name: 'forge', arguments: {} }, spec('forge'))).toMatchObject({ ok: true, result: 'caught 0 ports' })
  })
})

describe('thrown values that break serialisation', () => {
  const HOSTILE = `import { tool, z } from 'toolstep'
let calls = 0
const hostile = { toString() { throw new Error('no toString') }, toJSON() { throw new Error('no toJSON') } }
const trap = new Proxy({}, { get() { throw new Error('trap') }, getPrototypeOf() { throw new Error('trap') }, ownKeys() { throw new Error('trap') } })
export const count = tool({ description: '', inputSchema: z.object({}), execute: () => String(++calls) })
export const throw_hostile = tool({ description: '', inputSchema: z.object({}), execute: () => { calls++; throw hostile } })
export const throw_proxy = tool({ description: '', inputSchema: z.object({}), execute: async () => { calls++; throw trap } })
export const throw_getter = tool({
  description: '',
  inputSchema: z.object({}),
  execute: () => {
    calls++
    const error = new Error('x')
    Object.defineProperty(error, 'message', { get() { throw new Error('no message') } })
    Object.defineProperty(error, 'stack', { get() { throw new Error('no stack') } })
    throw error
  },
})
`

  it('reports each at once as the call’s error, runs the tool once, and keeps the worker', async () => {
    sandbox = createNodeSandbox({ toolTimeoutMs: 5000 })
    expect((await sandbox.load({ tools: HOSTILE })).ok).toBe(true)
    const expected: Record<string, RegExp> = {
      throw_hostile: /^Error: a thrown object that cannot be turned into text$/,
      throw_proxy: /^Error: a thrown object that cannot be turned into text$/,
      throw_getter: /^Error: /,
    }
    for (const [name, error] of Object.entries(expected)) {
      const outcome = await sandbox.execute({ id: name, name, arguments: {} }, spec(name))
      expect(outcome, name).toMatchObject({ ok: false, timedOut: false })
      expect(outcome.ok ? '' : outcome.error, name).toMatch(error)
      expect(outcome.ok ? undefined : outcome.interrupted, name).toBeUndefined()
    }
    // Same worker throughout (its counter was never reset by a respawn), each tool ran once.
    expect(await sandbox.execute({ id: 'n', name: 'count', arguments: {} }, spec('count'))).toMatchObject({ ok: true, result: '4' })
  })

  it('answers at once when model.ts returns a value whose every trap throws', async () => {
    sandbox = createNodeSandbox({ modelTimeoutMs: 20_000 })
    const trap = "new Proxy({}, { get() { throw new Error('trap') }, ownKeys() { throw new Error('trap') }, getOwnPropertyDescriptor() { throw new Error('trap') }, has() { throw new Error('trap') } })"
    expect((await sandbox.load({ tools: '', model: `export default () => ${trap}` })).ok).toBe(true)
    await expect(sandbox.respond(request(0))).rejects.toThrow('Error: trap')
  })

  it('reports a model that throws such a value at once', async () => {
    sandbox = createNodeSandbox()
    expect((await sandbox.load({ tools: '', model: `export default () => { throw { toString() { throw 1 }, toJSON() { throw 2 } } }` })).ok).toBe(true)
    await expect(sandbox.respond(request(0))).rejects.toThrow('a thrown object that cannot be turned into text')
  })
})

describe('memory bombs stop with the file and phase that ran out of memory', () => {
  const BOMB = 'const hoard: number[][] = []; for (;;) hoard.push(new Array(1e6).fill(Math.random()))'

  it('a tool: reports it, and the next call runs on a fresh worker', async () => {
    sandbox = createNodeSandbox({ memoryLimitMb: 64 })
    const loaded = await sandbox.load({
      tools: `import { tool, z } from 'toolstep'
export const bomb = tool({ description: '', inputSchema: z.object({}), execute: () => { ${BOMB} } })
export const ok = tool({ description: '', inputSchema: z.object({}), execute: () => 'fine' })`,
    })
    expect(loaded.ok).toBe(true)
    expect(await sandbox.execute({ id: 'b', name: 'bomb', arguments: {} }, spec('bomb', 30_000))).toMatchObject({
      ok: false,
      timedOut: false,
      error: 'tools.ts ran out of memory (limit 64 MB) while running tool "bomb" and was stopped.',
    })
    expect(await sandbox.execute({ id: 'o', name: 'ok', arguments: {} }, spec('ok'))).toMatchObject({ ok: true, result: 'fine' })
  })

  it('top-level code: the load fails naming the file, and later calls do not reload it', async () => {
    sandbox = createNodeSandbox({ memoryLimitMb: 64, loadTimeoutMs: 30_000 })
    const loaded = await sandbox.load({ tools: BOMB, model: 'export default () => "x"' })
    expect(loaded).toMatchObject({ ok: false, error: { file: 'tools.ts', message: 'tools.ts ran out of memory (limit 64 MB) while running its top-level code and was stopped.' } })
    expect(await sandbox.execute({ id: 'x', name: 'any', arguments: {} }, spec('any'))).toMatchObject({ ok: false, error: expect.stringContaining('tools.ts ran out of memory') })
  })

  it('model.ts: respond rejects naming the file and the step', async () => {
    sandbox = createNodeSandbox({ memoryLimitMb: 64, modelTimeoutMs: 30_000 })
    expect((await sandbox.load({ tools: '', model: `export default () => { ${BOMB} }` })).ok).toBe(true)
    await expect(sandbox.respond(request(2))).rejects.toThrow('model.ts ran out of memory (limit 64 MB) while answering turn 3 and was stopped.')
  })
})
