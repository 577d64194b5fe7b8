/**
 * A live run restored after a reload comes back as it was: paused where it was, and Step / Run
 * go on from there with the code it started from. An imported workspace asks before it
 * replaces the editors' code.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { SessionEvent } from '../core/loop'
import { writeWorkspace } from '../core/files'
import { createLogImportHost } from '../sandbox/log-import-host'
import { createNodeSandbox } from '../sandbox/node-sandbox'
import { inProcessImportWorker } from '../test/in-process-import-worker'
import { createPlayground, type Playground, type PlaygroundOptions } from './playground'

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

function setup(extra: Partial<PlaygroundOptions> = {}): Playground {
  const pg = createPlayground({ createSandbox: () => createNodeSandbox(), createImportHost: () => createLogImportHost(inProcessImportWorker), ...extra })
  open.push(pg)
  const workspace = pg.currentWorkspace()
  pg.stores.workspace.getState().loadWorkspace({ ...workspace, tools: TOOLS, model: MODEL, input: 'Add 1 and 2.', settings: { ...workspace.settings, protocol: 'openai' } })
  return pg
}

/** The log without wall-clock times (`at`, `durationMs`), which differ from run to run. */
// Times (ms) differ from run to run; what ran and what it returned must not.
const withoutTimes = (events: readonly SessionEvent[]) => JSON.parse(JSON.stringify(events, (key, value: unknown) => (key === 'at' || key === 'durationMs' || key === 'startOffsetMs' ? undefined : value))) as unknown

describe('a paused live run restored after a reload', () => {
  it('shows as paused, and Step then Run go on to the same end as an uninterrupted run', async () => {
    const whole = setup()
    await whole.run()
    const expected = whole.stores.run.getState().events

    const before = setup()
    for (let i = 0; i < 3; i++) await before.step()
    const { events, workspace } = before.stores.run.getState()
    expect(events.at(-1)?.type).not.toBe('loop.stopped')

    const after = setup()
    after.restoreRun(JSON.parse(JSON.stringify(events)) as SessionEvent[], workspace, 1, null)
    expect(after.stores.run.getState()).toMatchObject({ status: 'idle', mode: 'live', cursor: 1 })
    // The cursor first walks the restored log, then Step performs the next phase.
    await after.step()
    expect(after.stores.run.getState().cursor).toBe(2)
    await after.step()
    expect(after.stores.run.getState().events).toHaveLength(events.length + 1)
    await after.run()
    expect(withoutTimes(after.stores.run.getState().events)).toEqual(withoutTimes(expected))
    expect(after.stores.run.getState().status).toBe('stopped')
  })

  it('a run whose code no longer loads says so, and Run starts it again from the editors', async () => {
    const before = setup()
    await before.step()
    await before.step()
    const { events, workspace } = before.stores.run.getState()

    const after = setup()
    after.restoreRun(events, { ...workspace!, tools: 'export const add = (' }, 1, null)
    await after.run()
    const problems = after.stores.run.getState().problems
    expect(problems.map((p) => p.message).join('\n')).toContain('cannot go on. Run starts it again.')
    expect(after.stores.run.getState().events).toEqual(events)
    await after.run()
    expect(after.stores.run.getState()).toMatchObject({ status: 'stopped', problems: [] })
    expect(after.stores.run.getState().events.at(-1)).toMatchObject({ type: 'loop.stopped', reason: 'final_answer' })
  })

  it('a stopped log is shown as finished', async () => {
    const before = setup()
    await before.run()
    const { events, workspace } = before.stores.run.getState()
    const after = setup()
    after.restoreRun(events, workspace, events.length - 1, null)
    expect(after.stores.run.getState().status).toBe('stopped')
    await after.step()
    expect(after.stores.run.getState().events).toBe(events)
  })
})

describe('an imported workspace file', () => {
  it('waits for the answer when the app asks, and says nothing until then', async () => {
    let pending: (() => void) | null = null
    const pg = setup({ replaceWorkspace: (_title, load) => ((pending = load), 'asked') })
    const text = writeWorkspace({ ...pg.currentWorkspace(), tools: '// imported' })
    const outcome = await pg.importText('ws.json', text)
    expect(outcome).toEqual({ ok: true, message: '', phrases: [] })
    expect(pg.stores.workspace.getState().tools).toBe(TOOLS)
    pending!()
    expect(pg.stores.workspace.getState().tools).toBe('// imported')
  })
})
