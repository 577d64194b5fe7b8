/**
 * The CLI sandbox's timeouts for code that keeps its process busy in ways a timer cannot see:
 * a heap thrashing near its cap, and promise or microtask loops.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolSpec } from '../core/tools/types'
import { createProcessSandbox } from './node-process-sandbox'
import type { Sandbox } from './sandbox-host'

const spec = (name: string, timeoutMs?: number): ToolSpec => ({ name, description: '', inputSchema: {}, ...(timeoutMs ? { timeoutMs } : {}) })
const modelRequest = { messages: [{ role: 'user' as const, content: 'go' }], tools: [], step: 0, protocol: 'openai' }

let sandbox: Sandbox | undefined
afterEach(() => sandbox?.dispose())

describe('CLI sandbox: a memory bomb still far from its cap when its timeout passes', () => {
  // Takes more than half of its 256 MB cap at once, then grows by 4 MB a second: it would need
  // half a minute more to reach the cap, and must not be waited for that long.
  const SLOW = `const hoard: number[][] = []
for (let i = 0; i < 130; i++) hoard.push(new Array(1e5).fill(i + 0.5))
for (;;) { hoard.push(new Array(1e5).fill(0.5)); const until = Date.now() + 200; while (Date.now() < until) {} }`

  it('is stopped close to its timeout and reported as a timeout', async () => {
    sandbox = createProcessSandbox({ memoryLimitMb: 256, modelTimeoutMs: 3000 })
    expect((await sandbox.load({ tools: 'export {}', model: `export default function model() { ${SLOW} }` })).ok).toBe(true)
    const started = performance.now()
    await expect(sandbox.respond(modelRequest as never)).rejects.toThrow('Model timed out after 3000 ms and was stopped.')
    expect(performance.now() - started).toBeLessThan(3 * 3000)
  }, 60_000)
})

describe('CLI sandbox: a tool whose promise loop starves its process of timers', () => {
  // Each round's promise waits on the next one: the chain grows memory without end, and no timer
  // of the sandbox's own ever fires, so only the host can stop it. It used to be stopped only at
  // twice its timeout: the host waited for its growing memory to reach the cap.
  const tools = `import { tool, z } from 'toolstep'
export const x = tool({ description: '', inputSchema: z.object({}), execute: async () => { const f = (): Promise<unknown> => Promise.resolve().then(f); void f(); await new Promise(() => {}); return 'x' } })
export const add = tool({ description: '', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => String(a + b) })
`

  it('is stopped close to its timeout, naming the tool, and the next call runs in a fresh sandbox', async () => {
    sandbox = createProcessSandbox({ memoryLimitMb: 512 })
    expect((await sandbox.load({ tools })).ok).toBe(true)
    const started = performance.now()
    const outcome = await sandbox.execute({ id: 'c1', name: 'x', arguments: {} }, spec('x', 2000))
    // Its heap may be near its cap by then (the chain grows fast): either way the tool is named.
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^(Tool "x" timed out after 2000 ms|tools\.ts ran out of memory \(limit 512 MB\) while running tool "x") and was stopped\.$/),
    })
    expect(performance.now() - started).toBeLessThan(3 * 2000)
    expect(await sandbox.execute({ id: 'c2', name: 'add', arguments: { a: 2, b: 2 } }, spec('add'))).toMatchObject({ ok: true, result: '4' })
  }, 60_000)
})

describe('CLI sandbox: code a tool leaves running after it returned', () => {
  const tools = `import { tool, z } from 'toolstep'
export const x = tool({ description: '', inputSchema: z.object({}), execute: () => { const f = () => queueMicrotask(f); f(); return 'x' } })
`
  const model = `export default function model() { return { role: 'assistant', content: 'done' } }`

  it('is blamed on that tool call when the next model turn cannot get in, not on model.ts', async () => {
    sandbox = createProcessSandbox({ modelTimeoutMs: 1000 })
    expect((await sandbox.load({ tools, model })).ok).toBe(true)
    expect(await sandbox.execute({ id: 'c1', name: 'x', arguments: {} }, spec('x'))).toMatchObject({ ok: true, result: 'x' })
    await expect(sandbox.respond({ ...modelRequest, step: 1 } as never)).rejects.toThrow(
      'The sandbox was still busy with code tool "x" (call c1) left running after it returned (a microtask or promise loop), so model.ts never got turn 2 within 1000 ms; the sandbox was restarted.',
    )
    // The fresh sandbox answers.
    expect(await sandbox.respond({ ...modelRequest, step: 1 } as never)).toMatchObject({ kind: 'text', raw: expect.stringContaining('"content": "done"') })
  }, 60_000)

  it('still blames model.ts for a turn it took in and did not finish', async () => {
    sandbox = createProcessSandbox({ modelTimeoutMs: 1000 })
    expect((await sandbox.load({ tools: `import { tool, z } from 'toolstep'\nexport const y = tool({ description: '', inputSchema: z.object({}), execute: () => 'y' })\n`, model: 'export default function model() { while (true) {} }' })).ok).toBe(true)
    expect(await sandbox.execute({ id: 'c1', name: 'y', arguments: {} }, spec('y'))).toMatchObject({ ok: true, result: 'y' })
    await expect(sandbox.respond(modelRequest as never)).rejects.toThrow('Model timed out after 1000 ms and was stopped.')
  }, 60_000)
})
