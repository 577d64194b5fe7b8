import { afterEach, describe, expect, it } from 'vitest'
import type { EvalCase } from '../core/evals'
import { writeWorkspace } from '../core/files'
import { createLogImportHost } from '../sandbox/log-import-host'
import { createNodeSandbox } from '../sandbox/node-sandbox'
import { inProcessImportWorker } from '../test/in-process-import-worker'
import { createPlayground, type Playground } from './playground'
import { memoryStorage, type KeyValueStorage } from './storage'
import { WORKSPACE_KEY } from './workspace-store'

const TOOLS = `import { tool, z } from 'toolstep'
export const add = tool({ description: 'Adds.', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => ({ sum: a + b }) })
`
const MODEL = `import { callTools, type ModelContext } from 'toolstep'
export default (ctx: ModelContext) => ctx.step === 0 ? callTools(ctx.protocol, [{ name: 'add', arguments: { a: 1, b: 2 } }]) : 'The sum is ' + ctx.messages[ctx.messages.length - 1]?.content
`
const CASES = [
  { id: 'adds', input: 'Add 1 and 2.', assertions: [{ type: 'tool-used', tool: 'add' }, { type: 'final-answer', contains: '3' }] },
  { id: 'wrong-args', input: 'Add 5 and 5.', assertions: [{ type: 'tool-args-match', tool: 'add', arguments: { a: 5 } }] },
] as EvalCase[]

const open: Playground[] = []
afterEach(() => {
  while (open.length > 0) open.pop()!.dispose()
})

function setup(storage: KeyValueStorage = memoryStorage()): Playground {
  const pg = createPlayground({ createSandbox: () => createNodeSandbox(), createImportHost: () => createLogImportHost(inProcessImportWorker), storage })
  open.push(pg)
  return pg
}

describe('playground: evals', () => {
  it('a workspace file with cases keeps them (saved across a reload); Run evals fills the matrix and opens a case', async () => {
    const storage = memoryStorage()
    const pg = setup(storage)
    const file = writeWorkspace({ tools: TOOLS, model: MODEL, input: 'x', settings: { protocol: 'openai', maxSteps: 4, systemPrompt: '' }, cases: CASES })
    expect((await pg.importFiles([new File([file], 'suite.json')])).ok).toBe(true)
    expect(pg.currentWorkspace().cases?.map((c) => c.id)).toEqual(['adds', 'wrong-args'])
    expect(JSON.parse(storage.getItem(WORKSPACE_KEY)!).state.cases).toHaveLength(2)
    expect(setup(storage).currentWorkspace().cases?.map((c) => c.id)).toEqual(['adds', 'wrong-args'])

    await pg.runEvals()
    const state = pg.stores.evals.getState()
    expect(state).toMatchObject({ running: false, progress: { done: 2, total: 2 }, error: null })
    expect(state.results.map((r) => [r.id, r.passed])).toEqual([
      ['adds', true],
      ['wrong-args', false],
    ])
    expect(state.results[1]!.assertions[0]).toMatchObject({ expected: { tool: 'add', arguments: { a: 5 } }, actual: [{ a: 1, b: 2 }] })
    expect(state.metrics).toEqual({ toolSelectionAccuracy: 1, argumentAccuracy: 0, endToEndSuccess: 0.5 })

    expect(pg.openEvalCase('wrong-args')).toBe(true)
    const run = pg.stores.run.getState()
    expect(run.events[0]).toMatchObject({ type: 'session.started', messages: [{ role: 'system' }, { role: 'user', content: 'Add 5 and 5.' }] })
    expect(run.cursor).toBe(run.events.length - 1)
    expect(pg.openEvalCase('nope')).toBe(false)
  })

  it('reports code that does not load instead of running cases', async () => {
    const pg = setup()
    const workspace = pg.currentWorkspace()
    pg.stores.workspace.getState().loadWorkspace({ ...workspace, tools: 'export const x = (', cases: CASES })
    await pg.runEvals()
    expect(pg.stores.evals.getState()).toMatchObject({ running: false, results: [], error: expect.stringMatching(/tools\.ts/) })
  })
})
