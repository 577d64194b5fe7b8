import { afterEach, describe, expect, it } from 'vitest'
import { writeSession } from '../core/files'
import { diffTwoSessions } from '../core/debug'
import { writeWorkspace } from '../core/files'
import type { SessionEvent } from '../core/loop'
import { createLogImportHost } from '../sandbox/log-import-host'
import { createNodeSandbox } from '../sandbox/node-sandbox'
import type { Sandbox } from '../sandbox/sandbox-host'
import { inProcessImportWorker } from '../test/in-process-import-worker'
import type { Clock } from './clock'
import { PENDING_KEY } from './crash-guard'
import { createPlayground, type Playground } from './playground'
import { memoryStorage, type KeyValueStorage } from './storage'

const TOOLS = `import { tool, z } from 'toolstep'

export const add = tool({
  description: 'Adds two numbers.',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => ({ sum: a + b }),
})
`

const MODEL = `import { callTools, type ModelContext } from 'toolstep'
export default (ctx: ModelContext) => ctx.step === 0
  ? callTools(ctx.protocol, [{ name: 'add', arguments: { a: 1, b: 2 } }])
  : 'The sum is ' + ctx.messages[ctx.messages.length - 1]?.content
`

/** Two OpenAI conversations, each with one tool call and a final answer. */
const LOG = JSON.stringify(
  ['A', 'B'].map((id) => ({
    id,
    messages: [
      { role: 'user', content: `Order ${id}?` },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: `{"id":"${id}"}` } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'shipped' },
      { role: 'assistant', content: `Order ${id} has shipped.` },
    ],
  })),
)

const TOOLS_FILE = JSON.stringify([{ type: 'function', function: { name: 'lookup_order', description: 'Finds an order.', parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } } }])

/** A clock whose timers fire only when the test says so. */
function manualClock(): Clock & { fire(): void; readonly pending: number } {
  const timers = new Map<number, () => void>()
  let next = 0
  return {
    setTimeout(callback) {
      timers.set(++next, callback)
      return next
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    fire() {
      const due = [...timers.values()]
      timers.clear()
      due.forEach((callback) => callback())
    },
    get pending() {
      return timers.size
    },
  }
}

/** A sandbox whose replies to `method` are held until `release()`: a slow worker. The first `pass` replies are not held. */
function held(box: Sandbox, method: 'load' | 'respond', pass = 0): { box: Sandbox; release(): void; reached: Promise<void> } {
  let release!: () => void
  let reached!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const entered = new Promise<void>((resolve) => (reached = resolve))
  const proxy = new Proxy(box, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown
      if (key !== method || typeof value !== 'function') return value
      return async (...args: unknown[]) => {
        const reply: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)
        if (pass-- > 0) return reply
        reached()
        await gate
        return reply
      }
    },
  })
  return { box: proxy, release, reached: entered }
}

interface Setup {
  pg: Playground
  storage: KeyValueStorage
  clock: ReturnType<typeof manualClock>
  /** Sandboxes made so far. */
  sandboxes: Sandbox[]
  /** Replaces the next sandbox made. */
  nextSandbox: ((box: Sandbox) => Sandbox) | null
}

const open: Playground[] = []
afterEach(() => {
  while (open.length > 0) open.pop()!.dispose()
})

function setup(storage: KeyValueStorage = memoryStorage()): Setup {
  const clock = manualClock()
  const s: Setup = { pg: null as unknown as Playground, storage, clock, sandboxes: [], nextSandbox: null }
  s.pg = createPlayground({
    createSandbox: () => {
      const made = createNodeSandbox()
      const box = s.nextSandbox ? s.nextSandbox(made) : made
      s.nextSandbox = null
      s.sandboxes.push(made)
      return box
    },
    createImportHost: () => createLogImportHost(inProcessImportWorker),
    clock,
    storage,
    now: () => new Date('2026-01-02T03:04:05Z'),
  })
  open.push(s.pg)
  const workspace = s.pg.currentWorkspace()
  s.pg.stores.workspace.getState().loadWorkspace({ ...workspace, tools: TOOLS, model: MODEL, input: 'Add 1 and 2.', settings: { ...workspace.settings, protocol: 'openai' } })
  return s
}

const types = (events: readonly SessionEvent[]) => events.map((e) => e.type)
const file = (name: string, text: string) => new File([text], name, { type: 'application/json' })
const finalText = (events: readonly SessionEvent[]) => {
  const stopped = events.at(-1)
  return stopped?.type === 'loop.stopped' ? stopped.reason : null
}

describe('playground: run, step, back, reset', () => {
  it('Run loads the code, runs the loop to its end and shows the last event', async () => {
    const { pg } = setup()
    await pg.run()
    const { events, status, cursor, mode, workspace } = pg.stores.run.getState()
    expect(status).toBe('stopped')
    expect(mode).toBe('live')
    expect(cursor).toBe(events.length - 1)
    expect(types(events)).toContain('tool.finished')
    expect(finalText(events)).toBe('final_answer')
    expect(JSON.stringify(events)).toContain('The sum is')
    expect(workspace?.tools).toBe(TOOLS)
  })

  it('Step at the end of a finished run does nothing, and starts no sandbox', async () => {
    const s = setup()
    await s.pg.run()
    const before = s.pg.stores.run.getState().events
    await s.pg.step()
    expect(s.pg.stores.run.getState().events).toBe(before)
    expect(s.sandboxes).toHaveLength(1)
  })

  it('Step performs one phase at a time, Back travels back and Step then replays the log without running', async () => {
    const s = setup()
    await s.pg.step()
    expect(types(s.pg.stores.run.getState().events)).toEqual(['session.started'])
    await s.pg.step()
    await s.pg.step()
    const after = s.pg.stores.run.getState()
    expect(after.events.length).toBeGreaterThan(1)
    expect(after.status).toBe('idle')
    s.pg.back()
    expect(s.pg.stores.run.getState().cursor).toBe(after.events.length - 2)
    await s.pg.step()
    expect(s.pg.stores.run.getState().events).toBe(after.events)
    expect(s.pg.stores.run.getState().cursor).toBe(after.events.length - 1)
    // Back at the first event stays there.
    s.pg.stores.run.getState().setCursor(0)
    s.pg.back()
    expect(s.pg.stores.run.getState().cursor).toBe(0)
  })

  it('Reset clears the timeline; a new Run starts from scratch', async () => {
    const s = setup()
    await s.pg.run()
    s.pg.reset()
    expect(s.pg.stores.run.getState()).toMatchObject({ events: [], cursor: -1, status: 'idle', mode: 'live' })
    await s.pg.run()
    expect(s.sandboxes).toHaveLength(2)
    expect(finalText(s.pg.stores.run.getState().events)).toBe('final_answer')
  })

  it('ignores a sandbox load reply that comes back after Reset', async () => {
    const s = setup()
    let slow!: ReturnType<typeof held>
    s.nextSandbox = (box) => (slow = held(box, 'load')).box
    const running = s.pg.run()
    await slow.reached
    expect(s.pg.stores.run.getState().status).toBe('loading')
    s.pg.reset()
    slow.release()
    await running
    expect(s.pg.stores.run.getState()).toMatchObject({ events: [], status: 'idle', cursor: -1 })
  })

  it('ignores a model reply that comes back after Reset, and the next run is not disturbed by it', async () => {
    const s = setup()
    let slow!: ReturnType<typeof held>
    s.nextSandbox = (box) => (slow = held(box, 'respond')).box
    const running = s.pg.run()
    await slow.reached
    s.pg.reset()
    await s.pg.step()
    const fresh = s.pg.stores.run.getState().events
    expect(types(fresh)).toEqual(['session.started'])
    slow.release()
    await running
    expect(s.pg.stores.run.getState().events).toEqual(fresh)
    expect(s.pg.stores.run.getState().status).toBe('idle')
  })

  it('Stop ends a live run with stop reason aborted', async () => {
    const s = setup()
    let slow!: ReturnType<typeof held>
    s.nextSandbox = (box) => (slow = held(box, 'respond')).box
    const running = s.pg.run()
    await slow.reached
    s.pg.stop()
    slow.release()
    await running
    expect(finalText(s.pg.stores.run.getState().events)).toBe('aborted')
  })

  it('an earlier event picked during a run stays shown as the run goes on; picking the last event follows the run again', async () => {
    for (const pick of ['earlier', 'last'] as const) {
      const s = setup()
      let slow!: ReturnType<typeof held>
      // Held at the second model turn: the first turn's call and result are in the log by then.
      s.nextSandbox = (box) => (slow = held(box, 'respond', 1)).box
      const running = s.pg.run()
      await slow.reached
      await Promise.resolve()
      const mid = s.pg.stores.run.getState()
      expect(mid.events.length).toBeGreaterThan(2)
      expect(mid.status).toBe('running')
      mid.setCursor(pick === 'earlier' ? 0 : mid.events.length - 1)
      slow.release()
      await running
      const { events, cursor, status } = s.pg.stores.run.getState()
      expect(status).toBe('stopped')
      expect(finalText(events)).toBe('final_answer')
      expect(cursor).toBe(pick === 'earlier' ? 0 : events.length - 1)
    }
  })

  it('reports code that does not load on the file, and runs nothing', async () => {
    const s = setup()
    s.pg.stores.workspace.getState().setTools('export const = 1')
    await s.pg.run()
    const { problems, events, status } = s.pg.stores.run.getState()
    expect(status).toBe('idle')
    expect(events).toEqual([])
    expect(problems[0]?.file).toBe('tools.ts')
  })

  it('asks before a dangerous tool runs, and a denial is written back instead of running it', async () => {
    const s = setup()
    s.pg.stores.workspace.getState().setTools(TOOLS.replace("description: 'Adds two numbers.',", "description: 'Adds two numbers.',\n  dangerous: true,"))
    const running = s.pg.run()
    while (!s.pg.stores.confirm.getState().pending) await new Promise((resolve) => setTimeout(resolve, 5))
    const { calls } = s.pg.stores.confirm.getState().pending!
    expect(calls.map((c) => c.call.name)).toEqual(['add'])
    s.pg.answerConfirm(calls.map((c) => ({ callId: c.call.id, decision: 'deny' })))
    await running
    expect(s.pg.stores.confirm.getState().pending).toBeNull()
    expect(JSON.stringify(s.pg.stores.run.getState().events)).not.toContain('"sum":3')
  })
})

describe('playground: imports', () => {
  it('a session file is shown as it was, with its workspace loaded', async () => {
    const first = setup()
    await first.pg.run()
    const { events, workspace } = first.pg.stores.run.getState()
    const s = setup()
    s.pg.stores.workspace.getState().setTools('// other')
    const outcome = await s.pg.importFile(file('run.json', writeSession(workspace, events)))
    expect(outcome).toMatchObject({ ok: true, message: `Opened session run.json (${events.length} events).` })
    expect(s.pg.stores.run.getState()).toMatchObject({ mode: 'live', status: 'stopped', cursor: events.length - 1 })
    expect(s.pg.stores.run.getState().events).toEqual(events)
    expect(s.pg.stores.workspace.getState()).toMatchObject({ tools: TOOLS, exampleId: 'custom' })
    expect(s.pg.stores.replay.getState().conversations).toEqual([])
    expect(s.sandboxes).toHaveLength(0)
  })

  it('a workspace file goes into the editors and leaves the timeline alone', async () => {
    const s = setup()
    await s.pg.run()
    const events = s.pg.stores.run.getState().events
    const outcome = await s.pg.importFile(file('ws.json', writeWorkspace({ ...s.pg.currentWorkspace(), tools: '// imported' })))
    expect(outcome).toMatchObject({ ok: true, message: 'Loaded workspace ws.json.' })
    expect(s.pg.stores.workspace.getState().tools).toBe('// imported')
    expect(s.pg.stores.run.getState().events).toBe(events)
  })

  it('a foreign log is replayed from the worker, first conversation open', async () => {
    const s = setup()
    const outcome = await s.pg.importFile(file('log.json', LOG))
    expect(outcome).toMatchObject({ ok: true, message: 'Imported 2 conversations from log.json.' })
    // The same outcome as a phrase, for the UI to say in its language.
    expect(outcome.phrases).toEqual([{ key: 'imported', params: { file: 'log.json', count: 2, n: '2' } }])
    const replay = s.pg.stores.replay.getState()
    expect(replay).toMatchObject({ fileName: 'log.json', selected: 0, importing: null })
    expect(replay.conversations).toHaveLength(2)
    const run = s.pg.stores.run.getState()
    expect(run).toMatchObject({ mode: 'replay', status: 'stopped', cursor: 0 })
    expect(JSON.stringify(run.events)).toContain('Order A has shipped.')
    await s.pg.openConversation(1)
    expect(JSON.stringify(s.pg.stores.run.getState().events)).toContain('Order B has shipped.')
    expect(await s.pg.searchConversations('Order B')).toEqual([1])
    expect(s.sandboxes).toHaveLength(0)
  })

  it('a tools file dropped with its log applies to the log; a file of neither kind changes nothing', async () => {
    const s = setup()
    const outcome = await s.pg.importFiles([file('tools.json', TOOLS_FILE), file('log.json', LOG)])
    expect(outcome.ok).toBe(true)
    expect(outcome.message).toContain('Loaded 1 tool schema from tools.json')
    expect(s.pg.stores.replay.getState().toolsFileName).toBe('tools.json')
    const before = s.pg.stores.run.getState().events
    expect(await s.pg.importText('notes.json', '{"hello": 1}')).toMatchObject({ ok: false, message: 'notes.json: not a Toolstep session, workspace or tools file.' })
    expect((await s.pg.importText('bad.json', '{')).ok).toBe(false)
    expect(s.pg.stores.run.getState().events).toBe(before)
    await s.pg.clearReplayTools()
    expect(s.pg.stores.replay.getState()).toMatchObject({ tools: null, toolsFileName: null, importing: null })
    s.pg.closeReplay()
    expect(s.pg.stores.replay.getState()).toMatchObject({ fileName: null, conversations: [], selected: -1 })
    expect(s.pg.stores.run.getState().events).toEqual([])
  })

  it('recorded request/response files dropped together become one conversation, beside a log dropped with them', async () => {
    const s = setup()
    const request = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Order A?' }], tools: JSON.parse(TOOLS_FILE) as unknown }
    const chunk = (delta: unknown, finish: string | null = null) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
    const stream = `${chunk({ role: 'assistant', content: 'Shipped.' })}${chunk({}, 'stop')}data: [DONE]\n\n`
    const outcome = await s.pg.importFiles([file('order.request.json', JSON.stringify(request)), new File([stream], 'order.response.sse', { type: 'text/event-stream' })])
    expect(outcome).toMatchObject({ ok: true, message: 'Imported 1 conversation from 2 files.' })
    expect(s.pg.stores.replay.getState().conversations).toMatchObject([{ id: 'order', messageCount: 2 }])
    const responded = s.pg.stores.run.getState().events.find((event) => event.type === 'model.responded')
    expect(responded).toMatchObject({ recorded: { kind: 'sse', text: stream } })
    // One capture file alone is an ordinary import.
    const alone = await s.pg.importFiles([new File([stream], 'order.response.sse')])
    expect(alone).toMatchObject({ ok: true, message: 'Imported 1 conversation from order.response.sse.' })
  })

  it('Run during a replay goes to the end of the log and runs no code', async () => {
    const s = setup()
    await s.pg.importFile(file('log.json', LOG))
    const { events } = s.pg.stores.run.getState()
    await s.pg.run()
    expect(s.pg.stores.run.getState()).toMatchObject({ mode: 'replay', cursor: events.length - 1 })
    expect(s.pg.stores.run.getState().events).toBe(events)
    await s.pg.step()
    expect(s.pg.stores.run.getState().cursor).toBe(events.length - 1)
    expect(s.sandboxes).toHaveLength(0)
  })

  it('fork at a logged turn continues live with the workspace code, then back to the log reopens it at that turn', async () => {
    const s = setup()
    await s.pg.importFile(file('log.json', LOG))
    await s.pg.openConversation(1)
    const logged = s.pg.stores.run.getState().events
    const seq = logged.findIndex((e) => e.type === 'model.responded')
    expect(await s.pg.forkAt(seq)).toBe(true)
    expect(s.pg.stores.fork.getState()).toMatchObject({ conversation: { index: 1 }, seq, turn: 1 })
    expect(s.pg.stores.fork.getState().logged).toEqual(logged.slice(seq))
    expect(s.pg.stores.parseLab.getState().view).toBe('diff')
    const live = s.pg.stores.run.getState()
    expect(live).toMatchObject({ mode: 'live', status: 'stopped' })
    expect(JSON.stringify(live.events)).toContain('The sum is')
    expect(JSON.stringify(live.events)).toContain('Order B?')

    await s.pg.backToLog()
    expect(s.pg.stores.fork.getState().logged).toBeNull()
    expect(s.pg.stores.run.getState()).toMatchObject({ mode: 'replay', cursor: seq })
    expect(s.pg.stores.run.getState().events).toEqual(logged)
    expect(s.pg.stores.replay.getState().selected).toBe(1)
  })

  it('a fork is refused outside a replay or off a model turn', async () => {
    const s = setup()
    expect(await s.pg.forkAt(0)).toBe(false)
    await s.pg.importFile(file('log.json', LOG))
    expect(await s.pg.forkAt(0)).toBe(false)
    expect(s.pg.stores.fork.getState().logged).toBeNull()
  })

  it('edit and continue on a live run: the edited output is parsed again, the rest is a fork, back returns to the original', async () => {
    const s = setup()
    await s.pg.run()
    const original = s.pg.stores.run.getState().events
    const decide = original.findIndex((e) => e.type === 'model.responded')
    const edited = JSON.stringify({ role: 'assistant', content: null, tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'add', arguments: '{"a":5,"b":6}' } }] })
    expect(await s.pg.editAndContinue({ target: 'model_output', seq: decide, edited })).toEqual({ ok: true })
    const fork = s.pg.stores.run.getState()
    expect(fork).toMatchObject({ mode: 'live', status: 'stopped', cursor: fork.events.length - 1 })
    expect(fork.events.slice(0, decide + 1)).toEqual(original.slice(0, decide + 1))
    expect(fork.events[decide + 1]).toMatchObject({ type: 'edit.applied', target: 'model_output', original: (original[decide] as { raw: string }).raw, edited })
    expect(JSON.stringify(fork.events.at(-3))).toContain('The sum is {\\"sum\\":11}')
    expect(s.pg.stores.fork.getState()).toMatchObject({ kind: 'edit', fromSeq: decide, turn: 1, conversation: null })
    expect(s.pg.stores.fork.getState().logged).toEqual(original.slice(decide))
    // Exported and imported again, the edited session shows the same timeline.
    const again = setup()
    expect((await again.pg.importText('edited.session.json', writeSession(null, fork.events))).ok).toBe(true)
    expect(again.pg.stores.run.getState().events).toEqual(fork.events)

    await s.pg.backToLog()
    expect(s.pg.stores.fork.getState().logged).toBeNull()
    expect(s.pg.stores.run.getState()).toMatchObject({ mode: 'live', status: 'stopped', cursor: decide })
    expect(s.pg.stores.run.getState().events).toEqual(original)
  })

  it('edit and continue on a tool result backfills the edited result; a bad edit changes nothing', async () => {
    const s = setup()
    await s.pg.run()
    const original = s.pg.stores.run.getState().events
    const finished = original.findIndex((e) => e.type === 'tool.finished')
    expect(await s.pg.editAndContinue({ target: 'model_output', seq: finished, edited: 'x' })).toMatchObject({ ok: false })
    expect(s.pg.stores.run.getState().events).toBe(original)
    expect(s.pg.stores.fork.getState().logged).toBeNull()
    expect(await s.pg.editAndContinue({ target: 'tool_result', seq: finished, edited: '{"sum":42}' })).toEqual({ ok: true })
    const { events } = s.pg.stores.run.getState()
    expect(events[finished + 1]).toMatchObject({ type: 'edit.applied', target: 'tool_result', name: 'add', original: '{"sum":3}', edited: '{"sum":42}' })
    expect(events[finished + 2]?.type).toBe('backfill.completed')
    expect(JSON.stringify(events.at(-3))).toContain('The sum is {\\"sum\\":42}')
  })

  it('edit and continue on a replay forks it live with the workspace code, from the logged history', async () => {
    const s = setup()
    await s.pg.importFile(file('log.json', LOG))
    const logged = s.pg.stores.run.getState().events
    const decide = logged.findIndex((e) => e.type === 'model.responded')
    const edited = JSON.stringify({ role: 'assistant', content: null, tool_calls: [{ id: 'c9', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":2}' } }] })
    expect(await s.pg.editAndContinue({ target: 'model_output', seq: decide, edited })).toEqual({ ok: true })
    const { events, mode } = s.pg.stores.run.getState()
    expect(mode).toBe('live')
    expect(events[0]).toMatchObject({ type: 'session.started', source: 'live', protocol: 'openai', messages: [{ role: 'user', content: 'Order A?' }] })
    expect(events.slice(1, decide + 1)).toEqual(logged.slice(1, decide + 1))
    // The edited turn is the first of the workspace's max steps.
    expect(events[0]).toMatchObject({ maxSteps: s.pg.currentWorkspace().settings.maxSteps })
    expect(events[decide + 1]).toMatchObject({ type: 'edit.applied', original: (logged[decide] as { raw: string }).raw })
    expect(events.find((e) => e.type === 'tool.finished')).toMatchObject({ name: 'add', result: '{"sum":4}' })
    expect(finalText(events)).toBe('final_answer')
    expect(s.pg.stores.fork.getState()).toMatchObject({ kind: 'edit', conversation: { index: 0 }, original: null })
    await s.pg.backToLog()
    expect(s.pg.stores.run.getState()).toMatchObject({ mode: 'replay', cursor: decide })
    expect(s.pg.stores.run.getState().events).toEqual(logged)
  })

  it('exports the open session as an OpenAI request body', async () => {
    const s = setup()
    expect(s.pg.exportOpenSession('openai')).toBeNull()
    await s.pg.run()
    const exported = s.pg.exportOpenSession('openai')!
    expect(exported.fileName).toBe('toolstep-run.openai.json')
    const body = JSON.parse(exported.text) as { messages: { role: string }[]; tools: unknown[] }
    expect(body.messages.map((m) => m.role)).toContain('tool')
    expect(body.tools).toHaveLength(1)
    const ollama = s.pg.exportOpenSession('ollama')!
    expect(ollama.fileName).toBe('toolstep-run.ollama.json')
    const native = JSON.parse(ollama.text) as { messages: { role: string; tool_calls?: { function: { arguments: unknown } }[]; tool_name?: string }[] }
    const call = native.messages.find((m) => m.tool_calls)?.tool_calls?.[0]
    expect(typeof call?.function.arguments).toBe('object')
    expect(native.messages.find((m) => m.role === 'tool')?.tool_name).toBeTruthy()
  })

  it('a replayed log whose model reused a call id exports with the id renamed, and says so beside the file', async () => {
    const s = setup()
    const call = (id: string, a: number) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'add', arguments: `{"a":${a},"b":1}` } }] })
    const log = [{ role: 'user', content: 'Add twice.' }, call('call_1', 1), { role: 'tool', tool_call_id: 'call_1', content: '2' }, call('call_1', 2), { role: 'tool', tool_call_id: 'call_1', content: '3' }, { role: 'assistant', content: '2 and 3.' }]
    await s.pg.importFile(file('reused.json', JSON.stringify(log)))
    const exported = s.pg.exportOpenSession('openai')!
    const body = JSON.parse(exported.text) as { messages: { tool_call_id?: string; tool_calls?: { id: string }[] }[] }
    expect(body.messages.flatMap((m) => [...(m.tool_calls ?? []).map((c) => c.id), ...(m.tool_call_id ? [m.tool_call_id] : [])])).toEqual(['call_1', 'call_1', 'call_1_2', 'call_1_2'])
    expect(exported.warning).toEqual({ key: 'exportRenamedIds', params: { count: 1, renames: 'call_1 → call_1_2' } })
    expect(s.pg.exportOpenSession('ollama')!.warning).toBeUndefined()
  })
})

describe('playground: compare sessions', () => {
  it('reads both files in the import worker with progress, and the sides diff turn by turn', async () => {
    const s = setup()
    const seen: string[] = []
    s.pg.stores.compare.subscribe((state) => seen.push(`${state.a?.status ?? '-'}/${state.b?.status ?? '-'}`))
    const other = LOG.replaceAll('shipped', 'lost')
    await Promise.all([s.pg.compareFile('a', file('a.json', LOG)), s.pg.compareFile('b', file('b.json', other))])
    const { a, b } = s.pg.stores.compare.getState()
    expect(a).toMatchObject({ status: 'ready', name: 'a.json', format: 'openai-conversations', conversations: 2 })
    expect(b).toMatchObject({ status: 'ready', name: 'b.json' })
    // Progress came from the worker while both were read.
    expect(seen).toContain('reading/reading')
    const diff = diffTwoSessions(a?.status === 'ready' ? a.events : [], b?.status === 'ready' ? b.events : [])
    expect(diff.firstDifference).toEqual({ turn: 1, aspect: 'results' })
    // Reading a side never touches the playground's own log or replay.
    expect(s.pg.stores.run.getState().events).toEqual([])
    expect(s.pg.stores.replay.getState().conversations).toEqual([])
  })

  it('a session file gives its events; a file that is no log fails with the reason; the open session can be a side', async () => {
    const s = setup()
    await s.pg.run()
    const events = s.pg.stores.run.getState().events
    await s.pg.compareFile('a', file('run.session.json', writeSession(null, events)))
    expect(s.pg.stores.compare.getState().a).toMatchObject({ status: 'ready', format: 'toolstep-session', events })
    await s.pg.compareFile('b', file('notes.txt', 'just some notes'))
    expect(s.pg.stores.compare.getState().b).toMatchObject({ status: 'failed', name: 'notes.txt' })
    expect((s.pg.stores.compare.getState().b as { error: string }).error).not.toBe('')
    expect(s.pg.compareOpenSession('b', 'open session')).toBe(true)
    expect(s.pg.stores.compare.getState().b).toMatchObject({ status: 'ready', events })
  })
})

describe('playground: code check', () => {
  it('checks at start and again after an edit settles, reporting load errors on the file', async () => {
    const s = setup()
    const stop = s.pg.start()
    await until(() => s.pg.stores.codeCheck.getState().tools.length === 1)
    expect(s.pg.stores.codeCheck.getState().tools[0]?.name).toBe('add')
    s.pg.stores.workspace.getState().setTools('export const = 1')
    expect(s.clock.pending).toBe(1)
    s.clock.fire()
    await until(() => s.pg.stores.run.getState().problems.length > 0)
    expect(s.pg.stores.run.getState().problems[0]?.file).toBe('tools.ts')
    stop()
    s.pg.stores.workspace.getState().setTools(TOOLS)
    expect(s.clock.pending).toBe(0)
  })
})

describe('playground: crash-loop guard', () => {
  it('marks code as running while it is checked and clears the mark when it comes back', async () => {
    const s = setup()
    let slow!: ReturnType<typeof held>
    s.nextSandbox = (box) => (slow = held(box, 'load')).box
    s.pg.start()
    await slow.reached
    expect(JSON.parse(s.storage.getItem(PENDING_KEY)!)).toEqual({ kinds: ['check'], since: '2026-01-02T03:04:05.000Z' })
    slow.release()
    await until(() => !s.pg.stores.codeCheck.getState().checking)
    expect(s.storage.getItem(PENDING_KEY)).toBeNull()
  })

  it('after a page that ended during a run, runs nothing by itself, keeps the code, and runs again when asked', async () => {
    const storage = memoryStorage()
    // The previous page: a run started and never came back.
    const before = setup(storage)
    let slow!: ReturnType<typeof held>
    before.nextSandbox = (box) => (slow = held(box, 'respond')).box
    void before.pg.run()
    await slow.reached
    expect(JSON.parse(storage.getItem(PENDING_KEY)!).kinds).toEqual(['run'])

    const s = setupWithoutLoading(storage)
    expect(s.pg.stores.session.getState().interrupted).toEqual({ kind: 'run', since: '2026-01-02T03:04:05.000Z' })
    s.pg.start()
    expect(s.sandboxes).toHaveLength(0)
    expect(s.pg.stores.workspace.getState().tools).toBe(TOOLS)
    await s.pg.resumeInterrupted()
    expect(s.pg.stores.session.getState().interrupted).toBeNull()
    expect(finalText(s.pg.stores.run.getState().events)).toBe('final_answer')
    expect(storage.getItem(PENDING_KEY)).toBeNull()
    slow.release()
  })

  it('after a check that never came back, dismissing it runs nothing until the next edit', async () => {
    const storage = memoryStorage({ [PENDING_KEY]: JSON.stringify({ kinds: ['check'], since: 'x' }) })
    const s = setupWithoutLoading(storage)
    expect(s.pg.stores.session.getState().interrupted?.kind).toBe('check')
    s.pg.start()
    s.pg.dismissInterrupted()
    expect(storage.getItem(PENDING_KEY)).toBeNull()
    expect(s.sandboxes).toHaveLength(0)
    s.pg.stores.workspace.getState().setModel(MODEL + '\n')
    s.clock.fire()
    await until(() => s.pg.stores.codeCheck.getState().tools.length > 0)
    expect(s.sandboxes).toHaveLength(1)
  })

  it('a page left on purpose while code is checked (a reload) is not taken for a crash; back from the cache, the mark returns', async () => {
    const storage = memoryStorage()
    const before = setup(storage)
    let slow!: ReturnType<typeof held>
    before.nextSandbox = (box) => (slow = held(box, 'load')).box
    before.pg.start()
    await slow.reached
    before.pg.pageHidden()
    expect(setupWithoutLoading(storage).pg.stores.session.getState().interrupted).toBeNull()
    before.pg.pageShown()
    expect(JSON.parse(storage.getItem(PENDING_KEY)!).kinds).toEqual(['check'])
    // A marker another page wrote meanwhile (a tab that crashed) is not this page's to remove.
    const other = JSON.stringify({ kinds: ['run'], since: 'x' })
    storage.setItem(PENDING_KEY, other)
    before.pg.pageHidden()
    expect(storage.getItem(PENDING_KEY)).toBe(other)
    before.pg.pageShown()
    slow.release()
    await until(() => !before.pg.stores.codeCheck.getState().checking)
    expect(storage.getItem(PENDING_KEY)).toBeNull()
  })

  it('an unreadable marker still counts as interrupted work', () => {
    const s = setupWithoutLoading(memoryStorage({ [PENDING_KEY]: '{' }))
    expect(s.pg.stores.session.getState().interrupted).toEqual({ kind: 'check', since: null })
  })
})

/** A playground over `storage` as the page would open it: the saved workspace, nothing loaded by the test. */
function setupWithoutLoading(storage: KeyValueStorage): Setup {
  const clock = manualClock()
  const s: Setup = { pg: null as unknown as Playground, storage, clock, sandboxes: [], nextSandbox: null }
  s.pg = createPlayground({
    createSandbox: () => {
      const made = createNodeSandbox()
      s.sandboxes.push(made)
      return made
    },
    createImportHost: () => createLogImportHost(inProcessImportWorker),
    clock,
    storage,
  })
  open.push(s.pg)
  return s
}

/** Resolves once `condition` holds (polled on later tasks; the test's own timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}
