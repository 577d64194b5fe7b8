import { afterAll, describe, expect, it } from 'vitest'
import type { SessionEvent } from '../core/loop/events'
import { LoopRunner } from '../core/loop/runner'
import { runInitFor } from '../core/loop/start'
import { createNodeSandbox } from '../sandbox/node-sandbox'
import { evalMetrics, runEvalCase } from '../core/evals'
import { finishedCalls, stopReason } from './checks'
import evalMetricsSolution from './eval-metrics/solution-model.ts?raw'
import { findLesson, LESSON_LANGUAGES, lessonWorkspace, lessons, solvedWorkspace, type Lesson, type LessonLanguage, type LessonWorkspace } from './index'
import { EVAL_CASE_INPUTS, LESSON_INPUTS } from './inputs'
import { toTraditional } from '../../scripts/zh-tw-convert.mjs'
import { readFileSync } from 'node:fs'

const sandbox = createNodeSandbox()
afterAll(() => sandbox.dispose())

interface Outcome {
  errors: unknown[]
  events: SessionEvent[]
}

/**
 * Runs of the same workspace file, by its content. A run is deterministic (fixed clock, scripted
 * model) and most of its time is the sandbox worker's start, so the English run that several
 * tests check (its stop, its calls as the Chinese runs' reference, a challenge's starting code)
 * is made once per file instead of once per test.
 */
const outcomes = new Map<string, Promise<Outcome>>()

async function runOnce(file: ReturnType<typeof lessonWorkspace>): Promise<Outcome> {
  const loaded = await sandbox.load({ tools: file.tools, model: file.model })
  if (!loaded.ok) return { errors: loaded.errors, events: [] }
  const runner = new LoopRunner({ model: sandbox, executor: sandbox, router: sandbox, summarizer: sandbox, codeRunner: sandbox, clock: () => 0 })
  runner.start(runInitFor({ input: file.input, settings: file.settings }, loaded.tools))
  await runner.run()
  return { errors: [], events: [...runner.events] }
}

/** Runs a lesson workspace to the end in the Node sandbox, as the app's Run does (dangerous calls denied). */
async function run(workspace: LessonWorkspace, language: LessonLanguage = 'en'): Promise<SessionEvent[]> {
  const file = lessonWorkspace(workspace, language)
  const key = JSON.stringify(file)
  let outcome = outcomes.get(key)
  if (!outcome) {
    outcome = runOnce(file)
    outcomes.set(key, outcome)
  }
  const { errors, events } = await outcome
  expect(errors).toEqual([])
  // A copy: a test may not change what the next one reads.
  return structuredClone(events)
}

const lesson = (id: string) => findLesson(id) as Lesson

describe('lesson path', () => {
  it('has unique ids and covers every section in order', () => {
    expect(new Set(lessons.map((l) => l.id)).size).toBe(lessons.length)
    const sections = lessons.map((l) => l.section).filter((s, i, a) => a.indexOf(s) === i)
    expect(sections).toEqual(['basics', 'formats', 'robust', 'production', 'failures'])
  })

  it.each(lessons.map((l) => [l.id, l] as const))('%s: its workspace runs to a stop without a model error', async (_id, l) => {
    const events = await run(l.workspace)
    expect(stopReason(events)).toBeDefined()
    expect(events.filter((e) => e.type === 'model.failed')).toEqual([])
  })
})

/** How each lesson's run ends, as its text describes it. */
const EXPECTED_STOP: Readonly<Record<string, string>> = {
  'registry-tags': 'final_answer',
  'typed-schema': 'final_answer',
  'agent-loop': 'final_answer',
  'step-cap': 'max_steps',
  'parallel-calls': 'final_answer',
  'bracket-regex': 'final_answer',
  'pipe-syntax': 'final_answer',
  'native-tool-calls': 'final_answer',
  'prompt-json': 'final_answer',
  'fusion-fallback': 'final_answer',
  'schema-validation': 'final_answer',
  'name-aliases': 'final_answer',
  'dispatcher-ids': 'final_answer',
  'reflection-dispatch': 'final_answer',
  'structured-routing': 'final_answer',
  routing: 'final_answer',
  'code-as-action': 'final_answer',
  confirmation: 'final_answer',
  'history-cleanup': 'final_answer',
  'result-externalisation': 'final_answer',
  'eval-metrics': 'final_answer',
  'fail-malformed-json': 'error',
  'fail-hallucinated-tool': 'final_answer',
  'fail-wrong-types': 'final_answer',
  'fail-endless-loop': 'max_steps',
  'fail-prompt-injection': 'final_answer',
  'fail-huge-result': 'final_answer',
  'fail-duplicate-id': 'final_answer',
  'fail-timeout': 'final_answer',
}

/** The tools a run's model called, in order (arguments may carry the question's language). */
const callsOf = (events: readonly SessionEvent[]) => events.flatMap((e) => (e.type === 'parse.completed' ? e.calls.map((c) => c.name) : []))

describe('every lesson in every language', () => {
  it('has its user message in Chinese, zh-TW converted from zh-CN as the UI strings are', { timeout: 60_000 }, () => {
    const glossary = readFileSync(new URL('../../docs/glossary.md', import.meta.url), 'utf8')
    for (const l of lessons) {
      const inputs = LESSON_INPUTS[l.id]
      expect(inputs, l.id).toBeDefined()
      expect(/\p{Script=Han}/u.test(inputs!['zh-CN']), l.id).toBe(true)
      expect(lessonWorkspace(l.workspace, 'zh-TW').input).toBe(inputs!['zh-TW'])
    }
    expect(Object.keys(LESSON_INPUTS).sort()).toEqual(lessons.map((l) => l.id).sort())
    // One conversion of everything (each call builds OpenCC's converters).
    const all = { ...LESSON_INPUTS, ...Object.fromEntries(Object.entries(EVAL_CASE_INPUTS).map(([id, t]) => [`case:${id}`, t])) }
    const simplified = Object.fromEntries(Object.entries(all).map(([id, t]) => [id, t['zh-CN']]))
    expect(toTraditional(simplified, glossary)).toEqual(Object.fromEntries(Object.entries(all).map(([id, t]) => [id, t['zh-TW']])))
    const cases = lessonWorkspace(lesson('eval-metrics').workspace, 'zh-CN').cases ?? []
    expect(cases.map((c) => c.input)).toEqual(cases.map((c) => EVAL_CASE_INPUTS[c.id]?.['zh-CN']))
  })

  it.each(lessons.flatMap((l) => LESSON_LANGUAGES.map((language) => [l.id, language, l] as const)))('%s in %s: runs to its stop reason, making the calls it makes in English', async (id, language, l) => {
    const events = await run(l.workspace, language)
    expect(events.filter((e) => e.type === 'model.failed')).toEqual([])
    expect(stopReason(events)).toBe(EXPECTED_STOP[id])
    if (language !== 'en') expect(callsOf(events)).toEqual(callsOf(await run(l.workspace, 'en')))
  })

  it.each(lessons.filter((l) => l.challenge).flatMap((l) => (['zh-CN', 'zh-TW'] as const).map((language) => [l.id, language, l] as const)))('%s in %s: the starting code fails the challenge, the solution passes', async (_id, language, l) => {
    const check = l.challenge!.check
    expect(check(await run(l.workspace, language)).length).toBeGreaterThan(0)
    expect(check(await run(solvedWorkspace(l), language))).toEqual([])
  })
})

describe('challenges: the starting code fails the check, the solution passes', () => {
  const withChallenge = lessons.filter((l) => l.challenge)
  it('there are challenges across the path', () => {
    expect(withChallenge.length).toBeGreaterThanOrEqual(8)
  })
  it.each(withChallenge.map((l) => [l.id, l] as const))('%s', async (_id, l) => {
    const check = l.challenge!.check
    const before = check(await run(l.workspace))
    expect(before.length, 'starting code should fail').toBeGreaterThan(0)
    expect(check(await run(solvedWorkspace(l)))).toEqual([])
  })
})

describe('challenges cannot be passed by doing nothing', () => {
  // A model that answers at once, calling no tool: only the step cap's challenge (the user gets an
  // answer) is met by that; every other challenge is about what the tool calls did.
  const silent = "export default function model() {\n  return 'I can answer that without any tool.'\n}\n"
  it.each(lessons.filter((l) => l.challenge && l.id !== 'step-cap').map((l) => [l.id, l] as const))('%s', async (_id, l) => {
    const events = await run({ ...l.workspace, model: silent })
    expect(finishedCalls(events)).toEqual([])
    expect(l.challenge!.check(events).length).toBeGreaterThan(0)
  })
})

describe('lessons with their own code', () => {
  it('registry-tags: <tool>{json}</tool> calls get_weather, then add, then answers', async () => {
    const events = await run(lesson('registry-tags').workspace)
    expect(finishedCalls(events).map((e) => [e.name, e.result])).toEqual([
      ['get_weather', expect.stringContaining('Paris')],
      ['add', '22'],
    ])
    expect(stopReason(events)).toBe('final_answer')
  })

  it('typed-schema: the derived schema carries the enum and the examples, and the typed function converts', async () => {
    const events = await run(lesson('typed-schema').workspace)
    const started = events[0]
    expect(started?.type === 'session.started' && JSON.stringify(started.tools[0]?.inputSchema)).toContain('fahrenheit')
    expect(started?.type === 'session.started' && JSON.stringify(started.tools[0]?.inputSchema)).toContain('"examples":[21,98.6]')
    expect(finishedCalls(events).map((e) => e.result)).toEqual(['70'])
  })

  it('prompt-json: prose around the object is cut away, and {"tool":"none"} ends the loop', async () => {
    const events = await run(lesson('prompt-json').workspace)
    expect(finishedCalls(events).map((e) => [e.name, e.result])).toEqual([['lookup_capital', 'Tokyo']])
    expect(stopReason(events)).toBe('final_answer')
  })

  it('fail-duplicate-id: the loop renames the second call_1, so each result still pairs with one call', async () => {
    const events = await run(lesson('fail-duplicate-id').workspace)
    const ids = events.flatMap((e) => (e.type === 'backfill.completed' ? e.messages : [])).flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []))
    expect(ids).toEqual(['call_1', 'call_1_1'])
  })

  it('fusion-fallback: JSON matches first, then the bracket regex, then a malformed call is an error written back and sent again', async () => {
    const events = await run(lesson('fusion-fallback').workspace)
    const parses = events.flatMap((e) => (e.type === 'parse.completed' ? [e] : []))
    expect(parses.map((p) => [p.protocol, p.calls.map((c) => c.name), p.errors.length > 0])).toEqual([
      ['json', ['get_weather'], false],
      ['bracket', ['add'], false],
      ['json', [], true],
      ['json', ['get_time'], false],
      ['json', [], false],
    ])
    expect(parses[1]?.detection).toContain('Fallback chain')
    expect(finishedCalls(events).map((e) => e.name)).toEqual(['get_weather', 'add', 'get_time'])
    expect(stopReason(events)).toBe('final_answer')
  })

  it('eval-metrics: the cases measure the model, its city bug fails one argument check, and the fixed model passes all', async () => {
    async function measure(model: string) {
      const file = lessonWorkspace({ ...lesson('eval-metrics').workspace, model })
      const loaded = await sandbox.load({ tools: file.tools, model: file.model })
      if (!loaded.ok) throw new Error(loaded.errors.join('\n'))
      const results = []
      for (const c of file.cases ?? []) results.push((await runEvalCase(c, { settings: file.settings, tools: loaded.tools, model: sandbox, executor: sandbox, clock: () => 0 })).result)
      return { failed: results.filter((r) => !r.passed).map((r) => r.id), metrics: evalMetrics(results) }
    }
    const before = await measure(lesson('eval-metrics').workspace.model)
    expect(before.failed).toEqual(['weather-lyon'])
    expect(before.metrics).toEqual({ toolSelectionAccuracy: 1, argumentAccuracy: 0.5, endToEndSuccess: 0.75 })
    const after = await measure(evalMetricsSolution)
    expect(after.failed).toEqual([])
    expect(after.metrics).toEqual({ toolSelectionAccuracy: 1, argumentAccuracy: 1, endToEndSuccess: 1 })
  })

  it('eval-metrics challenge: the failing case is the lesson’s input, its argument check is what fails, and another question passes nothing', async () => {
    const l = lesson('eval-metrics')
    const check = l.challenge!.check
    const before = check(await run(l.workspace))
    expect(before).toEqual([{ key: 'assertionFailed', params: { case: 'weather-lyon', type: 'tool-args-match', expected: '{"tool":"get_weather","arguments":{"city":"Lyon"}}', actual: '[{"city":"today"}]' } }])
    // The fixed model on a question the old one already got right is no proof.
    const paris = check(await run({ ...l.workspace, model: evalMetricsSolution, input: 'What is the weather in Paris?' }))
    expect(paris).toEqual([{ key: 'otherInput', params: { expected: 'Is it raining in Lyon today?', actual: 'What is the weather in Paris?' } }])
    expect(check(await run(solvedWorkspace(l)))).toEqual([])
  })

  it('structured-routing: an enum rejects a category, the chosen one offers its tools, and the call goes through', async () => {
    const events = await run(lesson('structured-routing').workspace)
    const offered = events.flatMap((e) => (e.type === 'model.responded' ? [e.offeredTools ?? []] : []))
    expect(offered.slice(0, 3)).toEqual([['choose_category'], ['choose_category'], ['weather.current']])
    const calls = finishedCalls(events).map((e) => [e.name, e.error === undefined])
    expect(calls).toEqual([['choose_category', false], ['choose_category', true], ['weather.current', true]])
    expect(stopReason(events)).toBe('final_answer')
  })

  it('reflection-dispatch: methods found by reflection run, a throw is an error written back, constructor is no tool', async () => {
    const events = await run(lesson('reflection-dispatch').workspace)
    const started = events[0]
    expect(started?.type === 'session.started' && started.tools.map((t) => t.name)).toEqual(['notes.read', 'notes.write'])
    expect(finishedCalls(events).map((e) => [e.name, e.error === undefined])).toEqual([
      ['notes.read', true],
      ['notes.read', false],
      ['notes.constructor', false],
      ['notes.write', true],
    ])
    expect(stopReason(events)).toBe('final_answer')
  })
})
