/**
 * Which call of a parallel batch is blamed when one blocks the Node sandbox: the one whose code
 * the worker ran last, with its own timeout; the others are interrupted, not timed out.
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { ToolSpec } from '../core/tools/types'
import { createNodeSandbox } from './node-sandbox'
import type { SandboxToHost } from './protocol'
import { createToolBatchQueue, type BatchOutcome } from './tool-batch-host'
import type { Settled } from './request-client'

const spec = (name: string, timeoutMs?: number): ToolSpec => ({ name, description: '', inputSchema: {}, ...(timeoutMs ? { timeoutMs } : {}) })

const TOOLS = `import { tool, z } from 'toolstep'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
export const send_email = tool({ description: '', inputSchema: z.object({}), timeoutMs: 300, execute: async () => { await sleep(5000); return 'sent' } })
export const spin_later = tool({ description: '', inputSchema: z.object({}), timeoutMs: 900, execute: async () => { await sleep(30); while (true) {} } })
export const quick = tool({ description: '', inputSchema: z.object({}), execute: () => 'quick' })
`

describe('node sandbox (worker thread): a blocking call among parallel ones', () => {
  const sandbox = createNodeSandbox()
  afterAll(() => sandbox.dispose())

  it('blames the call that blocks (after its own timeout), not the earlier one still waiting', async () => {
    expect((await sandbox.load({ tools: TOOLS })).ok).toBe(true)
    const [email, spin, quick] = await Promise.all([
      sandbox.execute({ id: 'e1', name: 'send_email', arguments: {} }, spec('send_email', 300)),
      sandbox.execute({ id: 's2', name: 'spin_later', arguments: {} }, spec('spin_later', 900)),
      sandbox.execute({ id: 'q3', name: 'quick', arguments: {} }, spec('quick')),
    ])
    expect(spin).toMatchObject({ ok: false, timedOut: true, error: 'Tool "spin_later" timed out after 900 ms and was stopped.' })
    expect(email).toMatchObject({ ok: false, timedOut: false, interrupted: true, error: expect.stringContaining('Interrupted by the timeout of call s2 ("spin_later")') })
    // It finished before the block, so it keeps its result.
    expect(quick).toMatchObject({ ok: true, result: 'quick' })
  }, 30_000)
})

describe('batch queue: blame', () => {
  /** A fake worker that reports the batch started, then falls silent with `label` as its last label. */
  function silentWorker(label: (requestId: string) => string | undefined) {
    let running: string | undefined
    let stop: (settled: Settled<SandboxToHost>) => void = () => {}
    const timedOut: string[] = []
    const queue = createToolBatchQueue({
      send: (make, onInterim) => {
        make('req-1')
        running = label('req-1')
        onInterim({ type: 'tool-results', requestId: 'req-1', started: 3, done: false, results: [] } as SandboxToHost)
        return new Promise((resolve) => (stop = resolve))
      },
      timedOut: (call) => {
        timedOut.push(call.callId)
        stop({ status: 'stopped', reason: `interrupted by the timeout of call ${call.callId}` })
      },
      running: () => running,
      now: () => performance.now(),
      silenceSlackMs: 10,
    })
    const calls = ['a', 'b', 'c'].map((callId) => queue.enqueue({ callId, name: callId, arguments: {}, timeoutMs: 50 }))
    return { all: Promise.all(calls), timedOut }
  }

  it('blames the labelled call', async () => {
    const { all, timedOut } = silentWorker((requestId) => `${requestId}#1`)
    const outcomes: BatchOutcome[] = await all
    expect(timedOut).toEqual(['b'])
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['stopped', 'timeout', 'stopped'])
  })

  it('ignores a label of another request and falls back to the first started open call', async () => {
    const { all, timedOut } = silentWorker(() => 'other#1')
    expect((await all).map((outcome) => outcome.kind)).toEqual(['timeout', 'stopped', 'stopped'])
    expect(timedOut).toEqual(['a'])
  })
})
