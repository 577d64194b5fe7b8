import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '../tools/types'
import { readWorkspace } from '../files/workspace-file'
import { loopSettings } from '../loop/settings'
import { evalCaseSchema, evalCasesSchema, type EvalCase } from './case-schema'
import { partialMatch } from './assertions'
import { evalMetrics, evalReportJson, junitXml, type CaseResult } from './report'
import { runEvalCase, scriptedOutputs, type CaseEnvironment } from './run-case'
import { fnv1a, inShard, parseShard } from './shard'

const weather: ToolSpec = { name: 'get_weather', description: 'Weather.', inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } }
const charge: ToolSpec = { name: 'charge', description: 'Charge.', inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] } }

let t = 0
const env: CaseEnvironment = {
  settings: { protocol: 'openai', maxSteps: 4, systemPrompt: '' },
  tools: [weather, charge],
  model: { respond: async () => ({ kind: 'text', raw: 'from model.ts' }) },
  executor: { execute: async (c) => ({ ok: true, result: `{"city":${JSON.stringify(c.arguments.city ?? null)},"temperature":18}`, durationMs: 1 }) },
  clock: () => (t += 5),
}

const callWeather = (args: string, id = 'c1') => ({ role: 'assistant' as const, content: null, tool_calls: [{ id, type: 'function' as const, function: { name: 'get_weather', arguments: args } }] })

const parseCase = (value: unknown): EvalCase => evalCaseSchema.parse(value)

async function check(outputs: EvalCase['outputs'], assertions: unknown[]) {
  const { result } = await runEvalCase(parseCase({ id: 'x', input: 'Weather in Paris?', outputs, assertions }), env)
  return result.assertions.map((a) => a.passed)
}

describe('assertions over a run', () => {
  const outputs = [callWeather('{"city":"Paris","days":"2"}'), { content: 'It is 18 °C in Paris.' }]

  it('tool-used, tool-not-used, step-count, stop-reason, final-answer, no-anomaly pass on a good run', async () => {
    const passed = await check(outputs, [
      { type: 'tool-used', tool: 'get_weather' },
      { type: 'tool-not-used', tool: 'charge' },
      { type: 'step-count', max: 2 },
      { type: 'step-count', equals: 2 },
      { type: 'stop-reason', reason: 'final_answer' },
      { type: 'final-answer', contains: '18 °C' },
      { type: 'final-answer', regex: 'paris', flags: 'i' },
      { type: 'no-anomaly' },
    ])
    expect(passed).toEqual([true, true, true, true, true, true, true, true])
  })

  it('the same assertions fail, with expected and actual, when the run did otherwise', async () => {
    const { result } = await runEvalCase(
      parseCase({
        id: 'bad',
        input: 'x',
        outputs,
        assertions: [
          { type: 'tool-used', tool: 'charge' },
          { type: 'tool-not-used', tool: 'get_weather' },
          { type: 'step-count', max: 1 },
          { type: 'stop-reason', reason: 'max_steps' },
          { type: 'final-answer', contains: 'London' },
          { type: 'final-answer', regex: '(' },
        ],
      }),
      env,
    )
    expect(result.passed).toBe(false)
    expect(result.assertions.map((a) => a.passed)).toEqual([false, false, false, false, false, false])
    expect(result.assertions[0]).toEqual({ type: 'tool-used', passed: false, expected: { tool: 'charge' }, actual: ['get_weather'] })
    expect(result.assertions[2]).toMatchObject({ expected: { max: 1 }, actual: 2 })
    expect(result.assertions[3]).toMatchObject({ expected: 'max_steps', actual: 'final_answer' })
    expect(result.assertions[5]!.actual).toMatch(/^invalid regex/)
  })

  it('tool-args-match checks validated arguments against a partial object or a JSON Schema', async () => {
    expect(
      await check(outputs, [
        { type: 'tool-args-match', tool: 'get_weather', arguments: { city: 'Paris' } },
        // "2" was coerced to 2 by validation: the tool got a number.
        { type: 'tool-args-match', tool: 'get_weather', arguments: { days: 2 } },
        { type: 'tool-args-match', tool: 'get_weather', arguments: { city: 'London' } },
        { type: 'tool-args-match', tool: 'get_weather', schema: { type: 'object', properties: { city: { enum: ['Paris', 'Lyon'] } }, required: ['city'] } },
        { type: 'tool-args-match', tool: 'get_weather', schema: { type: 'object', required: ['country'] } },
        { type: 'tool-args-match', tool: 'charge', arguments: {} },
      ]),
    ).toEqual([true, true, false, true, false, false])
  })

  it('tool-sequence in order (extras allowed unless exact) or as a set', async () => {
    const three = [callWeather('{"city":"A"}', 'a'), { content: null, tool_calls: [{ id: 'b', function: { name: 'charge', arguments: '{"amount":1}' } }] }, callWeather('{"city":"B"}', 'c'), { content: 'done' }]
    expect(
      await check(three, [
        { type: 'tool-sequence', tools: ['get_weather', 'get_weather'] },
        { type: 'tool-sequence', tools: ['charge', 'get_weather'], order: 'ordered' },
        { type: 'tool-sequence', tools: ['get_weather', 'charge', 'get_weather'], exact: true },
        { type: 'tool-sequence', tools: ['get_weather', 'get_weather'], exact: true },
        { type: 'tool-sequence', tools: ['charge', 'get_weather'], order: 'set', exact: true },
        { type: 'tool-sequence', tools: ['get_weather'], order: 'set', exact: true },
        { type: 'tool-sequence', tools: ['charge', 'get_weather', 'charge'] },
      ]),
    ).toEqual([true, true, true, false, true, false, false])
  })

  it('no-anomaly fails on a warning; a script that runs out fails the run, not the process', async () => {
    const same = callWeather('{"city":"Paris"}')
    const { result } = await runEvalCase(parseCase({ id: 'loop', input: 'x', outputs: [same, same, same, same], assertions: [{ type: 'no-anomaly' }] }), {
      ...env,
      settings: { ...env.settings, loop: loopSettings({ repeatedCall: { limit: 2, action: 'warn' } }) },
    })
    expect(result.assertions[0]).toMatchObject({ passed: false, actual: expect.arrayContaining([expect.stringMatching(/^repeated_call: "get_weather" called 2 times/)]) })
    const short = await runEvalCase(parseCase({ id: 's', input: 'x', outputs: [same], assertions: [{ type: 'stop-reason', reason: 'error' }] }), env)
    expect(short.result.passed).toBe(true)
  })

  it('partial match compares objects by subset, arrays item by item', () => {
    expect(partialMatch({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 })).toBe(true)
    expect(partialMatch({ a: [1, { x: 1 }] }, { a: [1, { x: 1, y: 2 }] })).toBe(true)
    expect(partialMatch({ a: [1] }, { a: [1, 2] })).toBe(false)
    expect(partialMatch({ a: null }, { a: 0 })).toBe(false)
  })
})

describe('case files', () => {
  it('rejects duplicate ids and incomplete assertions with the path of the bad field', () => {
    expect(evalCasesSchema.safeParse([{ id: 'a', input: '', assertions: [{ type: 'no-anomaly' }] }, { id: 'a', input: '', assertions: [{ type: 'no-anomaly' }] }]).error?.issues[0]).toMatchObject({ path: [1, 'id'] })
    expect(evalCaseSchema.safeParse({ id: 'a', input: '', assertions: [{ type: 'step-count' }] }).error?.issues[0]?.message).toMatch(/exactly one of "max" or "equals"/)
    expect(evalCaseSchema.safeParse({ id: 'a', input: '', assertions: [{ type: 'tool-usd', tool: 'x' }] }).success).toBe(false)
  })

  it('a workspace without cases or breakpoints still loads; one with them keeps them', () => {
    const base = { format: 'toolstep.workspace', version: 1, tools: '', model: '', input: 'hi', settings: { protocol: 'json', maxSteps: 3 } }
    expect(readWorkspace(JSON.stringify(base)).ok).toBe(true)
    const full = readWorkspace(JSON.stringify({ ...base, cases: [{ id: 'a', input: 'q', assertions: [{ type: 'no-anomaly' }] }], settings: { ...base.settings, breakpoints: [{ id: 'b', on: { kind: 'anomaly' } }] } }))
    expect(full.ok && full.value.cases?.[0]?.id).toBe('a')
    expect(full.ok && full.value.settings.breakpoints?.[0]).toEqual({ id: 'b', enabled: true, on: { kind: 'anomaly' }, condition: '' })
    const bad = readWorkspace(JSON.stringify({ ...base, cases: [{ id: 'a', input: 'q', assertions: [] }] }))
    expect(!bad.ok && bad.error).toMatch(/cases\[0\]\.assertions/)
  })
})

describe('shards', () => {
  const ids = Array.from({ length: 200 }, (_, i) => ({ id: `case-${i}` }))

  it('N shards are disjoint and their union is every case, whatever the order', () => {
    for (const count of [1, 2, 3, 7]) {
      const shards = Array.from({ length: count }, (_, k) => inShard(ids, { index: k + 1, count }).map((c) => c.id))
      const union = shards.flat()
      expect(new Set(union).size).toBe(union.length)
      expect([...union].sort()).toEqual(ids.map((c) => c.id).sort())
      const reversed = inShard([...ids].reverse(), { index: 1, count }).map((c) => c.id)
      expect([...reversed].sort()).toEqual([...shards[0]!].sort())
    }
    // Every shard of a 4-way split of 200 cases gets some.
    expect(Array.from({ length: 4 }, (_, k) => inShard(ids, { index: k + 1, count: 4 }).length).every((n) => n > 20)).toBe(true)
  })

  it('reads K/N and rejects everything else', () => {
    expect(parseShard('2/4')).toEqual({ ok: true, shard: { index: 2, count: 4 } })
    for (const bad of ['0/4', '5/4', '1/0', 'a/b', '1-2', '']) expect(parseShard(bad).ok).toBe(false)
    expect(fnv1a('a')).toBe(0xe40c292c)
  })
})

describe('reports', () => {
  const results: CaseResult[] = [
    { id: 'ok', passed: true, durationMs: 1500, stopReason: 'final_answer', assertions: [{ type: 'tool-used' as const, passed: true, expected: { tool: 'a' }, actual: ['a'] }] },
    {
      id: 'bad <&> "case"',
      passed: false,
      durationMs: 20,
      stopReason: 'max_steps',
      assertions: [
        { type: 'tool-args-match' as const, passed: false, expected: { tool: 'a', arguments: { x: 1 } }, actual: [{ x: 2 }] },
        { type: 'tool-not-used' as const, passed: true, expected: { notTool: 'b' }, actual: ['a'] },
      ],
    },
  ]

  it('metrics: tool-selection accuracy, argument accuracy, end-to-end success', () => {
    expect(evalMetrics(results)).toEqual({ toolSelectionAccuracy: 1, argumentAccuracy: 0, endToEndSuccess: 0.5 })
    expect(evalMetrics([])).toEqual({ toolSelectionAccuracy: null, argumentAccuracy: null, endToEndSuccess: null })
  })

  it('--json has exactly the documented shape', () => {
    const json = evalReportJson(results)
    expect(Object.keys(json)).toEqual(['cases', 'passed', 'failed', 'results'])
    expect(json).toMatchObject({ cases: 2, passed: 1, failed: 1 })
    expect(Object.keys(json.results[1]!)).toEqual(['id', 'passed', 'assertions'])
    expect(Object.keys(json.results[1]!.assertions[0]!)).toEqual(['type', 'passed', 'expected', 'actual'])
  })

  it('JUnit XML names each case, escapes text and lists failed assertions', () => {
    const text = junitXml('suite', results)
    expect(text).toMatch(/<testsuite name="suite" tests="2" failures="1"/)
    expect(text).toContain('<testcase classname="suite" name="ok" time="1.500"/>')
    expect(text).toContain('name="bad &lt;&amp;&gt; &quot;case&quot;"')
    expect(text).toContain('<failure message="tool-args-match: expected {&quot;tool&quot;:&quot;a&quot;,&quot;arguments&quot;:{&quot;x&quot;:1}}, actual [{&quot;x&quot;:2}]"')
    expect(text).not.toContain('tool-not-used:')
    expect(text).toContain('<property name="endToEndSuccess" value="0.5000"/>')
  })
})

describe('scripted outputs', () => {
  const request = { messages: [], tools: [], step: 0 } as unknown as Parameters<ReturnType<typeof scriptedOutputs>['respond']>[0]
  it('past the script, fail naming the turn, with the count in the singular or plural', async () => {
    const one = scriptedOutputs(['Hi.'])
    await one.respond(request)
    await expect(one.respond(request)).rejects.toThrow('The case scripts 1 model output; turn 2 has none.')
    const two = scriptedOutputs(['a', 'b'])
    await two.respond(request)
    await two.respond(request)
    await expect(two.respond(request)).rejects.toThrow('The case scripts 2 model outputs; turn 3 has none.')
  })
})
