import { afterEach, describe, expect, it } from 'vitest'
import type { Breakpoint } from '../core/debug'
import { createLogImportHost } from '../sandbox/log-import-host'
import { createNodeSandbox } from '../sandbox/node-sandbox'
import { inProcessImportWorker } from '../test/in-process-import-worker'
import { createPlayground, type Playground } from './playground'
import { memoryStorage } from './storage'

const TOOLS = `import { tool, z } from 'toolstep'
export const add = tool({ description: 'Adds.', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => ({ sum: a + b }) })
`
// Three turns: add(1,2), add(40,2), then the answer.
const MODEL = `import { callTools, type ModelContext } from 'toolstep'
export default (ctx: ModelContext) => ctx.step === 0
  ? callTools(ctx.protocol, [{ name: 'add', arguments: { a: 1, b: 2 } }])
  : ctx.step === 1 ? callTools(ctx.protocol, [{ name: 'add', arguments: { a: 40, b: 2 } }])
  : 'Done: ' + ctx.messages[ctx.messages.length - 1]?.content
`

const LOG = JSON.stringify([
  { role: 'user', content: 'Order?' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"id":"A"}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: 'shipped' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'lookup', arguments: '{"id":"B"}' } }] },
  { role: 'tool', tool_call_id: 'c2', content: 'lost' },
  { role: 'assistant', content: 'A shipped, B lost.' },
])

const open: Playground[] = []
afterEach(() => {
  while (open.length > 0) open.pop()!.dispose()
})

function setup(breakpoints: Breakpoint[]): Playground {
  const pg = createPlayground({
    createSandbox: () => createNodeSandbox(),
    createImportHost: () => createLogImportHost(inProcessImportWorker),
    storage: memoryStorage(),
  })
  open.push(pg)
  const workspace = pg.currentWorkspace()
  pg.stores.workspace.getState().loadWorkspace({ ...workspace, tools: TOOLS, model: MODEL, input: 'Add.', settings: { ...workspace.settings, protocol: 'openai', breakpoints } })
  return pg
}

const bp = (id: string, on: Breakpoint['on'], condition = '', enabled = true): Breakpoint => ({ id, enabled, on, condition })

describe('playground: breakpoints', () => {
  it('Run pauses at the first hit, names it, and Run again continues to the end', async () => {
    const pg = setup([bp('big', { kind: 'before', phase: 'execute' }, 'call.arguments.a > 10')])
    await pg.run()
    const paused = pg.stores.run.getState()
    expect(paused.breakHit).toMatchObject({ label: 'before execute when call.arguments.a > 10', call: { name: 'add', arguments: { a: 40, b: 2 } } })
    expect(paused.status).toBe('idle')
    expect(paused.cursor).toBe(paused.events.length - 1)
    expect(paused.events.filter((e) => e.type === 'tool.finished')).toHaveLength(1)
    await pg.run()
    const done = pg.stores.run.getState()
    expect(done.breakHit).toBeNull()
    expect(done.status).toBe('stopped')
    expect(done.events.filter((e) => e.type === 'tool.finished')).toHaveLength(2)
    expect(done.events.at(-1)).toMatchObject({ type: 'loop.stopped', reason: 'final_answer' })
  })

  it('disabled breakpoints and ones whose condition does not parse are not honoured', async () => {
    const pg = setup([bp('off', { kind: 'before', phase: 'decide' }, '', false), bp('bad', { kind: 'any' }, 'turn ==')])
    await pg.run()
    expect(pg.stores.run.getState()).toMatchObject({ breakHit: null, status: 'stopped' })
  })

  it('in a replay Run goes to the next hit, then to the end', async () => {
    const pg = setup([bp('lost', { kind: 'event', type: 'tool.finished' }, "result.content == 'lost'")])
    expect((await pg.importFiles([new File([LOG], 'log.json')])).ok).toBe(true)
    await pg.run()
    const hit = pg.stores.run.getState()
    expect(hit.breakHit?.breakpoint.id).toBe('lost')
    expect(hit.events[hit.cursor]).toMatchObject({ type: 'tool.finished', callId: 'c2', result: 'lost' })
    await pg.run()
    expect(pg.stores.run.getState()).toMatchObject({ breakHit: null, cursor: hit.events.length - 1 })
  })
})
