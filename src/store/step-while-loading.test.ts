/**
 * A Step or Run asked for while the code loads (the sandbox is starting, right after a lesson
 * opened) is not dropped: the latest one waits and is done once the load ends, unless a Reset,
 * a failed load or an edit of the workspace came first.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createLogImportHost } from '../sandbox/log-import-host'
import { createNodeSandbox } from '../sandbox/node-sandbox'
import type { Sandbox } from '../sandbox/sandbox-host'
import { inProcessImportWorker } from '../test/in-process-import-worker'
import { createPlayground, type Playground } from './playground'

const TOOLS = `import { tool, z } from 'toolstep'
export const add = tool({ description: 'Adds.', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => ({ sum: a + b }) })
`
const MODEL = `import { callTools, type ModelContext } from 'toolstep'
export default (ctx: ModelContext) => ctx.step === 0 ? callTools(ctx.protocol, [{ name: 'add', arguments: { a: 1, b: 2 } }]) : 'The sum is ' + ctx.messages[ctx.messages.length - 1]?.content
`

const open: Playground[] = []
afterEach(() => {
  while (open.length > 0) open.pop()!.dispose()
})

/**
 * A playground whose sandboxes hold their load until `release()` is called: the time a real
 * worker takes to start, made as long as the test needs.
 */
function gated(): { pg: Playground; release(): void; loading: () => number } {
  const waiting: Array<() => void> = []
  let loads = 0
  const createSandbox = (): Sandbox => {
    const box = createNodeSandbox()
    return new Proxy(box, {
      get(target, key, receiver) {
        if (key !== 'load') {
          const value: unknown = Reflect.get(target, key, receiver)
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
        }
        return async (sources: Parameters<Sandbox['load']>[0]) => {
          loads += 1
          await new Promise<void>((resolve) => waiting.push(resolve))
          return target.load(sources)
        }
      },
    })
  }
  const pg = createPlayground({ createSandbox, createImportHost: () => createLogImportHost(inProcessImportWorker) })
  open.push(pg)
  const workspace = pg.currentWorkspace()
  pg.stores.workspace.getState().loadWorkspace({ ...workspace, tools: TOOLS, model: MODEL, input: 'Add 1 and 2.', settings: { ...workspace.settings, protocol: 'openai' } })
  return { pg, release: () => waiting.splice(0).forEach((resolve) => resolve()), loading: () => loads }
}

/** Lets the sandbox's load be asked for (the controller awaits nothing else before it). */
async function untilLoading(pg: Playground, loading: () => number, count = 1): Promise<void> {
  while (pg.stores.run.getState().status !== 'loading' || loading() < count) await new Promise((resolve) => setTimeout(resolve, 1))
}

const types = (pg: Playground) => pg.stores.run.getState().events.map((e) => e.type)

describe('Step and Run while the code loads', () => {
  it('a second Step pressed while the first one loads the code is done once the load ends', async () => {
    const { pg, release, loading } = gated()
    const first = pg.step()
    await untilLoading(pg, loading)
    const second = pg.step()
    expect(pg.stores.run.getState().status).toBe('loading')
    release()
    await first
    await second
    // Without the queue the second Step was dropped: only session.started.
    expect(types(pg)).toEqual(['session.started', 'model.responded'])
    expect(pg.stores.run.getState()).toMatchObject({ status: 'idle', cursor: 1 })
  })

  it('one action waits, the latest wins: Step then Run while loading runs to the end', async () => {
    const { pg, release, loading } = gated()
    const first = pg.step()
    await untilLoading(pg, loading)
    void pg.step()
    void pg.run()
    release()
    await first
    expect(pg.stores.run.getState().status).toBe('stopped')
    expect(types(pg).at(-1)).toBe('loop.stopped')
    expect(loading()).toBe(1)
  })

  it('Run then Step while loading only steps once', async () => {
    const { pg, release, loading } = gated()
    const first = pg.step()
    await untilLoading(pg, loading)
    void pg.run()
    void pg.step()
    void pg.step()
    release()
    await first
    expect(types(pg)).toEqual(['session.started', 'model.responded'])
  })

  it('a Reset or an edit of the workspace while loading cancels the queued action', async () => {
    const reset = gated()
    const first = reset.pg.step()
    await untilLoading(reset.pg, reset.loading)
    void reset.pg.step()
    reset.pg.reset()
    reset.release()
    await first
    expect(types(reset.pg)).toEqual([])

    const edited = gated()
    const started = edited.pg.step()
    await untilLoading(edited.pg, edited.loading)
    void edited.pg.step()
    edited.pg.stores.workspace.getState().setInput('Add 2 and 3.')
    edited.release()
    await started
    expect(types(edited.pg)).toEqual(['session.started'])
  })

  it('a load that fails drops the queued action', async () => {
    const { pg, release, loading } = gated()
    pg.stores.workspace.getState().setTools('export const = broken')
    const first = pg.step()
    await untilLoading(pg, loading)
    void pg.run()
    release()
    await first
    expect(types(pg)).toEqual([])
    expect(pg.stores.run.getState().problems.length).toBeGreaterThan(0)
    expect(loading()).toBe(1)
  })
})
