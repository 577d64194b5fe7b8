/**
 * The playground's phase offload over a real message channel (structured clone, as with a
 * worker): big turns go to the worker and come back in parts with the same events as in the
 * page, small turns never leave the page, the calls of a parse are not sent back for their
 * validation, and Stop during an offloaded phase ends that worker and discards its answer.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { inThreadPhases, LoopRunner, parseInput, validateInput, fold, type ModelOutput, type PhaseRunner, type SessionEvent, type ToolExecutor } from '../core/loop'
import type { ToolSpec } from '../core/tools'
import { rememberedJson, stableJson } from '../core/util'
import { PART_CHARS, PART_ITEMS, servePhases, type PageToWorker, type PhasePort, type WorkerToPage } from './engine-phases-protocol'
import { createPhaseOffload, OFFLOAD_VALIDATE_CALLS, type PhaseWorker } from './engine-phases'

const echo: ToolSpec = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }
const executor: ToolExecutor = { execute: async (call) => ({ ok: true, result: JSON.stringify(call.arguments), durationMs: 0 }) }

interface Traffic {
  toWorker: PageToWorker['type'][]
  toPage: WorkerToPage['type'][]
  spawned: number
  terminated: number
}

const open: MessagePort[] = []
afterEach(() => {
  for (const port of open.splice(0)) port.close()
})

/** Workers over a MessageChannel, serving phases like the browser's; `stall` makes them never answer. */
function channelWorkers(traffic: Traffic, stall = false): () => PhaseWorker {
  return () => {
    traffic.spawned += 1
    const { port1, port2 } = new MessageChannel()
    open.push(port1, port2)
    if (!stall) {
      const workerSide: PhasePort = {
        postMessage: (message) => {
          traffic.toPage.push(message.type)
          port2.postMessage(message)
        },
        set onmessage(handler: PhasePort['onmessage']) {
          port2.onmessage = handler ? (event) => handler({ data: event.data as PageToWorker }) : null
        },
        get onmessage() {
          return null
        },
      }
      servePhases(workerSide)
    }
    const page: PhaseWorker = {
      postMessage: (message) => {
        traffic.toWorker.push(message.type)
        port1.postMessage(message)
      },
      set onmessage(handler: PhaseWorker['onmessage']) {
        port1.onmessage = handler ? (event) => handler({ data: event.data as WorkerToPage }) : null
      },
      get onmessage() {
        return null
      },
      onerror: null,
      terminate: () => {
        traffic.terminated += 1
        port1.close()
        port2.close()
      },
    }
    return page
  }
}

const newTraffic = (): Traffic => ({ toWorker: [], toPage: [], spawned: 0, terminated: 0 })

function output(calls: number): ModelOutput {
  return { kind: 'message', message: { content: null, tool_calls: Array.from({ length: calls }, (_, i) => ({ id: `c${i}`, type: 'function' as const, function: { name: 'echo', arguments: `{"n":${i},"city":"City ${i % 7}"}` } })) } }
}

function runner(phases: PhaseRunner | undefined, calls: number): LoopRunner {
  let turn = 0
  const loop = new LoopRunner({
    model: { respond: async () => (turn++ === 0 ? output(calls) : { kind: 'text', raw: 'done' }) },
    executor,
    clock: () => 0,
    ...(phases ? { phases } : {}),
  })
  loop.start({ protocol: 'openai', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: 3 })
  return loop
}

describe('createPhaseOffload', () => {
  it('a turn of 5 000 calls is parsed and validated in the worker, in parts, with the same log as in the page', async () => {
    const calls = 5000
    const expected = await runner(undefined, calls).run()
    const traffic = newTraffic()
    const offload = createPhaseOffload({ spawn: channelWorkers(traffic) })
    const events = await runner(offload, calls).run()
    expect(events).toEqual(expected)
    // Both phases went to the one worker; the calls came back in parts, and the validation read
    // the parse the worker held instead of having the calls sent back.
    expect(traffic.spawned).toBe(1)
    expect(traffic.toWorker).toEqual(['parse', 'validate'])
    const parts = Math.ceil(calls / PART_ITEMS)
    expect(traffic.toPage).toEqual([...Array<string>(parts).fill('part'), 'done', ...Array<string>(parts).fill('part'), 'done'])
    offload.dispose()
  })

  it('one call whose arguments make the output big is parsed in the worker and validated there too, with the same log', async () => {
    const wide = `{"n":1,"city":"${'x'.repeat(300_000)}"}`
    const big = (): LoopRunner => {
      let turn = 0
      const loop = new LoopRunner({
        model: { respond: async () => (turn++ === 0 ? { kind: 'message', message: { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'echo', arguments: wide } }] } } : { kind: 'text', raw: 'done' }) },
        executor,
        clock: () => 0,
        ...(offload ? { phases: offload } : {}),
      })
      loop.start({ protocol: 'openai', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: 3 })
      return loop
    }
    let offload: ReturnType<typeof createPhaseOffload> | undefined
    const expected = await big().run()
    const traffic = newTraffic()
    offload = createPhaseOffload({ spawn: channelWorkers(traffic) })
    expect(await big().run()).toEqual(expected)
    // The page walked none of the arguments: the worker that parsed the call validated it.
    expect(traffic.toWorker).toEqual(['parse', 'validate'])
    offload.dispose()
  })

  it('sends wide arguments back in parts of their own that the page reads one task each, to the same log', async () => {
    // One call of 100 000 small objects (and a "__proto__" member): one structured clone of it held the page.
    const wide = `{"n":"1","__proto__":{"x":1},"list":[${Array.from({ length: 100_000 }, (_, k) => `{"k":${k},"s":"v${k % 10}"}`).join(',')}]}`
    const big = (): LoopRunner => {
      let turn = 0
      const loop = new LoopRunner({
        model: { respond: async () => (turn++ === 0 ? { kind: 'message', message: { content: null, tool_calls: [{ id: 'c0', type: 'function', function: { name: 'echo', arguments: '{"n":0}' } }, { id: 'c1', type: 'function', function: { name: 'echo', arguments: wide } }] } } : { kind: 'text', raw: 'done' }) },
        executor,
        clock: () => 0,
        ...(offload ? { phases: offload } : {}),
      })
      loop.start({ protocol: 'openai', tools: [{ ...echo, inputSchema: { type: 'object', properties: { n: { type: 'integer' }, list: { type: 'array' } } } }], messages: [{ role: 'user', content: 'go' }], maxSteps: 3 })
      return loop
    }
    let offload: ReturnType<typeof createPhaseOffload> | undefined
    const expected = await big().run()
    const traffic = newTraffic()
    offload = createPhaseOffload({ spawn: channelWorkers(traffic) })
    const events = await big().run()
    expect(events).toEqual(expected)
    const parsed = events.find((event) => event.type === 'parse.completed')
    if (parsed?.type !== 'parse.completed') throw new Error('no parse')
    expect(Object.keys(parsed.calls[1]!.arguments)).toEqual(['n', '__proto__', 'list'])
    expect((parsed.calls[1]!.arguments.list as unknown[]).length).toBe(100_000)
    // Their JSON text came with them: the page writes none of it. Their keys are out of order, so
    // the stable text (keys sorted, for the repeated-call check) came too, and so did the call's
    // raw arguments (as long), as many parts each.
    const json = JSON.stringify(parsed.calls[1]!.arguments)
    expect(rememberedJson(parsed.calls[1]!.arguments)).toBe(json)
    expect(parsed.calls[1]!.rawArguments).toBe(wide)
    const parseTraffic = traffic.toPage.slice(0, traffic.toPage.indexOf('done'))
    expect(parseTraffic.filter((type) => type === 'value-json')).toHaveLength(3 * Math.ceil(json.length / PART_CHARS))
    expect(stableJson(parsed.calls[1]!.arguments).startsWith('{"__proto__":{"x":1},"list":[{"k":0,"s":"v0"}')).toBe(true)
    // Validation coerced "1" to 1: the verdict's new arguments came back in parts too.
    const validated = events.find((event) => event.type === 'validate.completed')
    if (validated?.type !== 'validate.completed') throw new Error('no validation')
    expect(validated.verdicts[1]?.arguments?.n).toBe(1)
    expect((validated.verdicts[1]?.arguments?.list as unknown[]).length).toBe(100_000)
    const parse = traffic.toPage.slice(0, traffic.toPage.indexOf('done') + 1)
    const valueParts = parse.filter((type) => type === 'value-part').length
    expect(valueParts).toBeGreaterThanOrEqual(5)
    expect(parse).toEqual(['part', ...Array<string>(valueParts).fill('value-part'), ...Array<string>(parse.length - valueParts - 2).fill('value-json'), 'done'])
    expect(traffic.toPage.slice(parse.length)).toContain('value-part')
    offload.dispose()
  })

  it('sends a call whose one argument is megabytes back in parts too: the string in chunks, the raw arguments as text parts', async () => {
    const long = '"quoted" é 😀 '.repeat(200_000)
    const wide = JSON.stringify({ n: 2, text: long })
    const make = (phases?: PhaseRunner): LoopRunner => {
      let turn = 0
      const loop = new LoopRunner({
        model: { respond: async () => (turn++ === 0 ? { kind: 'message', message: { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'echo', arguments: wide } }] } } : { kind: 'text', raw: 'done' }) },
        executor,
        clock: () => 0,
        ...(phases ? { phases } : {}),
      })
      loop.start({ protocol: 'openai', tools: [{ ...echo, inputSchema: { type: 'object', properties: { n: { type: 'integer' }, text: { type: 'string' } } } }], messages: [{ role: 'user', content: 'go' }], maxSteps: 3 })
      return loop
    }
    const expected = await make().run()
    const traffic = newTraffic()
    const offload = createPhaseOffload({ spawn: channelWorkers(traffic) })
    const events = await make(offload).run()
    expect(events).toEqual(expected)
    const parsed = events.find((event) => event.type === 'parse.completed')
    if (parsed?.type !== 'parse.completed') throw new Error('no parse')
    expect(parsed.calls[0]!.rawArguments).toBe(wide)
    expect(parsed.calls[0]!.arguments.text).toBe(long)
    const parse = traffic.toPage.slice(0, traffic.toPage.indexOf('done') + 1)
    expect(parse.filter((type) => type === 'value-part').length).toBeGreaterThanOrEqual(Math.floor(long.length / PART_CHARS))
    // The JSON text (keys in order: once, for both uses) and the raw arguments, a million chars a part.
    expect(parse.filter((type) => type === 'value-json')).toHaveLength(2 * Math.ceil(wide.length / PART_CHARS))
    offload.dispose()
  })

  it('sends a raw output of millions of chars to the worker in parts, one per task, and reads it whole there', async () => {
    // A call in prose, the prose making the output 2.5 M chars (surrogate pairs may be cut by a part's end).
    const raw = `${'😀 prose '.repeat(250_000)}{"tool": "echo", "arguments": {"n": 7}}`
    expect(raw.length).toBeGreaterThan(2 * PART_CHARS)
    const make = (phases?: PhaseRunner): LoopRunner => {
      let turn = 0
      const loop = new LoopRunner({ model: { respond: async () => ({ kind: 'text', raw: turn++ === 0 ? raw : 'done' }) }, executor, clock: () => 0, ...(phases ? { phases } : {}) })
      loop.start({ protocol: 'json', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: 3 })
      return loop
    }
    const expected = await make().run()
    let pauses = 0
    const traffic = newTraffic()
    const offload = createPhaseOffload({ spawn: channelWorkers(traffic), pause: async () => void pauses++ })
    const events = await make(offload).run()
    expect(events).toEqual(expected)
    expect(events.find((event) => event.type === 'parse.completed')).toMatchObject({ calls: [{ name: 'echo', arguments: { n: 7 } }] })
    const parts = Math.ceil(raw.length / PART_CHARS)
    expect(traffic.toWorker.slice(0, parts + 1)).toEqual([...Array<string>(parts).fill('raw-part'), 'parse'])
    expect(pauses).toBeGreaterThanOrEqual(parts - 1)
    offload.dispose()
  })

  it('does not send back the arguments validation left as they were: the verdict holds the page\'s own call arguments', async () => {
    const calls = OFFLOAD_VALIDATE_CALLS + 10
    // Every third call's n is a string, which validation coerces; the others pass as written.
    const mixed = (): LoopRunner => {
      let turn = 0
      const message = { content: null, tool_calls: Array.from({ length: calls }, (_, i) => ({ id: `c${i}`, type: 'function' as const, function: { name: 'echo', arguments: i % 3 === 0 ? `{"n":"${i}"}` : `{"n":${i}}` } })) }
      const loop = new LoopRunner({ model: { respond: async () => (turn++ === 0 ? { kind: 'message', message } : { kind: 'text', raw: 'done' }) }, executor, clock: () => 0, ...(offload ? { phases: offload } : {}) })
      loop.start({ protocol: 'openai', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: 3 })
      return loop
    }
    let offload: ReturnType<typeof createPhaseOffload> | undefined
    const expected = await mixed().run()
    offload = createPhaseOffload({ spawn: channelWorkers(newTraffic()) })
    const events = await mixed().run()
    expect(events).toEqual(expected)
    const parsed = events.find((event) => event.type === 'parse.completed')
    const validated = events.find((event) => event.type === 'validate.completed')
    if (parsed?.type !== 'parse.completed' || validated?.type !== 'validate.completed') throw new Error('no turn')
    expect(validated.verdicts[1]?.arguments).toBe(parsed.calls[1]?.arguments)
    expect(validated.verdicts[3]?.arguments).not.toBe(parsed.calls[3]?.arguments)
    expect(validated.verdicts[3]?.arguments).toEqual({ n: 3 })
    expect(validated.verdicts.every((verdict) => !('sameArguments' in verdict))).toBe(true)
    offload.dispose()
  })

  it('keeps small turns in the page', async () => {
    const traffic = newTraffic()
    const offload = createPhaseOffload({ spawn: channelWorkers(traffic) })
    const events = await runner(offload, 3).run()
    expect(events.filter((e) => e.type === 'tool.finished')).toHaveLength(3)
    expect(traffic.spawned).toBe(0)
  })

  it('sends the calls in parts when the worker does not hold them (a run resumed before its validation)', async () => {
    const calls = OFFLOAD_VALIDATE_CALLS * 3
    const full = await runner(undefined, calls).run()
    const upToParse = full.slice(0, full.findIndex((e) => e.type === 'parse.completed') + 1)
    const state = fold(upToParse)
    const traffic = newTraffic()
    const offload = createPhaseOffload({ spawn: channelWorkers(traffic) })
    const event = await offload.validate(validateInput(state))
    expect(event).toEqual(await inThreadPhases.validate(validateInput(state)))
    expect(traffic.toWorker).toEqual([...Array<string>(Math.ceil(calls / PART_ITEMS)).fill('calls-part'), 'validate'])
    offload.dispose()
  })

  it('falls back to the page when no worker can start', async () => {
    const offload = createPhaseOffload({
      spawn: () => {
        throw new Error('Worker is not defined')
      },
    })
    const state = fold((await runner(undefined, 1).run()).slice(0, 2))
    const raw = 'x'.repeat(300_000)
    expect(await offload.parse({ ...parseInput(state), raw })).toEqual(await inThreadPhases.parse({ ...parseInput(state), raw }))
  })

  it('a worker that dies (or never loads) costs time, not the phase: it is computed in the page', async () => {
    const traffic = newTraffic()
    const dying = (): PhaseWorker => {
      traffic.spawned += 1
      const worker: PhaseWorker = {
        postMessage: () => void setTimeout(() => worker.onerror?.(new Error('failed to load')), 1),
        onmessage: null,
        onerror: null,
        terminate: () => void (traffic.terminated += 1),
      }
      return worker
    }
    const expected = await runner(undefined, 3000).run()
    const events = await runner(createPhaseOffload({ spawn: dying }), 3000).run()
    expect(events.slice(-1)).toEqual(expected.slice(-1))
    expect(events).toEqual(expected)
    expect(traffic.spawned).toBeGreaterThan(0)
  })

  it('Stop during an offloaded parse ends its worker and discards it; the next big turn gets a fresh worker', async () => {
    const traffic = newTraffic()
    const offload = createPhaseOffload({ spawn: channelWorkers(traffic, true) })
    const loop = runner(offload, 5000)
    await loop.step() // decide
    const parsing = loop.step()
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(traffic.toWorker).toEqual(['parse'])
    loop.abort()
    expect(await parsing).toEqual([])
    expect(traffic.terminated).toBe(1)
    expect(loop.events.map((e: SessionEvent) => e.type)).toEqual(['session.started', 'model.responded', 'loop.stopped'])
    // A later run's big turn is answered by a new worker.
    const working = newTraffic()
    const next = createPhaseOffload({ spawn: channelWorkers(working) })
    const events = await runner(next, 5000).run()
    expect(events.at(-1)).toMatchObject({ type: 'loop.stopped', reason: 'final_answer' })
    next.dispose()
  })
})
