import { describe, expect, it } from 'vitest'
import { scripted } from '../../test/scripted-model'
import type { SessionEvent } from '../loop/events'
import type { Model } from '../loop/interfaces'
import { describeEvent } from '../loop/present/describe'
import { turnsOf } from '../loop/present/diff'
import { fold } from '../loop/reducer'
import { LoopRunner } from '../loop/runner'
import { loopSettings } from '../loop/settings'
import type { ToolSpec } from '../tools/types'
import { readSession, writeSession } from '../files/session-file'
import { writeMockModel } from '../files/mock-model'
import { planEdit } from './edit'
import { diffTwoSessions } from './session-diff'

const weather: ToolSpec = { name: 'get_weather', description: 'Weather.', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }
const time: ToolSpec = { name: 'get_time', description: 'Time.', inputSchema: { type: 'object', properties: {} } }

/** At step 0 calls get_weather, then answers with the last message: what follows an edit shows in the answer. */
function model(): Model {
  return scripted([
    (request) =>
      request.step === 0
        ? { kind: 'text', raw: '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>' }
        : { kind: 'text', raw: `Answer: ${request.messages.at(-1)?.content ?? ''}` },
  ])
}

function runner(m: Model = model()) {
  const executed: string[] = []
  let t = 0
  const r = new LoopRunner({
    model: m,
    executor: { execute: async (c) => (executed.push(c.name), { ok: true, result: c.name === 'get_time' ? '12:00' : `sunny in ${String(c.arguments['city'])}`, durationMs: 1 }) },
    clock: () => (t += 1),
  })
  return { r, executed }
}

async function originalRun(): Promise<SessionEvent[]> {
  const { r } = runner()
  r.start({ protocol: 'xml-tag', tools: [weather, time], messages: [{ role: 'user', content: 'Weather?' }], maxSteps: 4, settings: loopSettings({}) })
  return r.run()
}

async function fork(events: SessionEvent[], plan: ReturnType<typeof planEdit>, m?: Model) {
  if (!plan.ok) throw new Error(plan.error)
  const { r, executed } = runner(m)
  r.resume(events.slice(0, plan.plan.keep))
  r.edit(plan.plan.edit)
  return { events: await r.run(), executed }
}

describe('edit and continue', () => {
  it('an edited model output is re-parsed by the wire format and the rest of the run is a fork', async () => {
    const original = await originalRun()
    const decide = original.findIndex((e) => e.type === 'model.responded')
    const edited = '<tool_call>{"name": "get_time", "arguments": {}}</tool_call>'
    const plan = planEdit(original, { target: 'model_output', seq: decide, edited })
    const { events, executed } = await fork(original, plan)
    // The log keeps the model's own output, then the edit with the original beside it.
    expect(events.slice(0, decide + 1)).toEqual(original.slice(0, decide + 1))
    expect(events[decide + 1]).toMatchObject({ type: 'edit.applied', target: 'model_output', editedSeq: decide, original: original[decide]!.type === 'model.responded' ? (original[decide] as { raw: string }).raw : '', edited })
    const parsed = events[decide + 2]
    expect(parsed?.type === 'parse.completed' && parsed.calls.map((c) => c.name)).toEqual(['get_time'])
    expect(executed).toEqual(['get_time'])
    expect(fold(events).finalAnswer).toBe('Answer: 12:00')
    // Each seq is its position, as in any log; the file round-trips.
    expect(events.every((e, i) => e.seq === i)).toBe(true)
    const reread = readSession(writeSession(null, events))
    expect(reread.ok && reread.value.events).toEqual(events)
    // The diff names the turn where they part: the calls of turn 1.
    const diff = diffTwoSessions(original, events)
    expect(diff.firstDifference).toEqual({ turn: 1, aspect: 'calls' })
    expect(turnsOf(events)).toHaveLength(2)
    expect(describeEvent(events[decide + 1]!)).toMatchObject({ phase: 'edit', title: 'Edit · model output' })
  })

  it('an edited tool result is backfilled in place of the real one, and the model reads it', async () => {
    const original = await originalRun()
    const finished = original.findIndex((e) => e.type === 'tool.finished')
    const plan = planEdit(original, { target: 'tool_result', seq: finished, edited: 'snow in Paris' })
    expect(plan.ok && plan.plan.keep).toBe(finished + 1)
    const { events, executed } = await fork(original, plan)
    // Nothing is re-run: the edited result is backfilled and the model is asked again.
    expect(executed).toEqual([])
    expect(events[finished + 1]).toMatchObject({ type: 'edit.applied', target: 'tool_result', callId: 'call_1_0', name: 'get_weather', original: 'sunny in Paris', edited: 'snow in Paris' })
    const backfill = events[finished + 2]
    expect(backfill?.type === 'backfill.completed' && backfill.messages.find((m) => m.role === 'tool')).toMatchObject({ content: 'snow in Paris' })
    expect(fold(events).finalAnswer).toBe('Answer: snow in Paris')
    expect(diffTwoSessions(original, events).firstDifference).toEqual({ turn: 1, aspect: 'results' })
  })

  it('a result edited into an error is written back as one', async () => {
    const original = await originalRun()
    const finished = original.findIndex((e) => e.type === 'tool.finished')
    const { events } = await fork(original, planEdit(original, { target: 'tool_result', seq: finished, edited: 'service unavailable', isError: true }))
    const backfill = events.find((e) => e.type === 'backfill.completed')
    expect(backfill?.type === 'backfill.completed' && backfill.messages.find((m) => m.role === 'tool')).toMatchObject({ content: 'Error: service unavailable', isError: true })
  })

  it('refuses what cannot be edited, naming why', async () => {
    const original = await originalRun()
    const parse = original.findIndex((e) => e.type === 'parse.completed')
    const decide = original.findIndex((e) => e.type === 'model.responded')
    expect(planEdit(original, { target: 'model_output', seq: parse, edited: 'x' })).toMatchObject({ ok: false, error: 'Event 2 is parse.completed, not a model output.' })
    expect(planEdit(original, { target: 'tool_result', seq: decide, edited: 'x' })).toMatchObject({ ok: false, error: 'Event 1 is not the result of a tool call.' })
    const raw = (original[decide] as { raw: string }).raw
    expect(planEdit(original, { target: 'model_output', seq: decide, edited: raw })).toMatchObject({ ok: false, error: 'The edit changes nothing.' })
    expect(planEdit(original, { target: 'model_output', seq: 99, edited: 'x' })).toMatchObject({ ok: false, error: 'No event 99 in this session.' })
    const { r } = runner()
    expect(() => r.resume(original)).toThrow('The log has already stopped.')
  })

  it('an edit of an edited turn keeps the model\'s own output as the original', async () => {
    const original = await originalRun()
    const decide = original.findIndex((e) => e.type === 'model.responded')
    const once = await fork(original, planEdit(original, { target: 'model_output', seq: decide, edited: 'I will not call anything.' }))
    expect(fold(once.events).finalAnswer).toBe('I will not call anything.')
    const twice = await fork(once.events, planEdit(once.events, { target: 'model_output', seq: decide, edited: '<tool_call>{"name": "get_time", "arguments": {}}</tool_call>' }))
    const edits = twice.events.filter((e) => e.type === 'edit.applied')
    expect(edits).toHaveLength(1)
    expect(edits[0]).toMatchObject({ original: (original[decide] as { raw: string }).raw })
    expect(twice.executed).toEqual(['get_time'])
  })

  it('Save as mock model replays the edited output, not the original', async () => {
    const original = await originalRun()
    const decide = original.findIndex((e) => e.type === 'model.responded')
    const { events } = await fork(original, planEdit(original, { target: 'model_output', seq: decide, edited: 'Just an answer.' }))
    const source = writeMockModel(events, 'a test')
    expect(source).toContain('Just an answer.')
    expect(source).not.toContain('get_weather')
  })
})
