import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ASSERTION_TYPES } from '../../core/evals'
import { writeWorkspace } from '../../core/files/workspace-file'
import { findExample, type Example } from '../../examples/index'
import { fakeIO } from '../../test/fake-io'
import { evalCommand } from './eval'

const weather = findExample('weather') as Example

const call = (name: string, args: object, id = 'c1') => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] })

/** Five cases over the weather example: three pass, two fail. */
const cases = [
  {
    id: 'paris-model',
    input: 'What is the weather in Paris?',
    assertions: [
      { type: 'tool-used', tool: 'get_weather' },
      { type: 'tool-args-match', tool: 'get_weather', arguments: { city: 'Paris' } },
      { type: 'stop-reason', reason: 'final_answer' },
      { type: 'final-answer', contains: 'Paris' },
    ],
  },
  {
    id: 'math-scripted',
    input: 'What is 6 * 7?',
    outputs: [call('calculate', { expression: '6 * 7' }), { content: 'It is 42.' }],
    assertions: [
      { type: 'tool-sequence', tools: ['calculate'], order: 'ordered', exact: true },
      { type: 'tool-not-used', tool: 'get_weather' },
      { type: 'step-count', equals: 2 },
      { type: 'final-answer', regex: '^It is \\d+\\.$' },
      { type: 'no-anomaly' },
    ],
  },
  {
    id: 'both-set',
    input: 'Weather in Oslo and 1 + 1?',
    assertions: [
      { type: 'tool-sequence', tools: ['calculate', 'get_weather'], order: 'set' },
      { type: 'tool-args-match', tool: 'calculate', schema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] } },
      { type: 'step-count', max: 3 },
    ],
  },
  {
    id: 'wrong-city',
    input: 'What is the weather in Lyon?',
    assertions: [{ type: 'tool-args-match', tool: 'get_weather', arguments: { city: 'Paris' } }],
  },
  {
    id: 'too-many-steps',
    input: 'Weather in Rome and 2 * 3?',
    assertions: [{ type: 'step-count', max: 1 }, { type: 'tool-used', tool: 'get_weather' }],
  },
]

const workspace = writeWorkspace({ tools: weather.tools, model: weather.model, input: weather.input, settings: { protocol: 'openai', maxSteps: 6, systemPrompt: '' }, cases: cases as never })

interface Report {
  cases: number
  passed: number
  failed: number
  results: { id: string; passed: boolean; assertions: { type: string; passed: boolean; expected: unknown; actual: unknown }[] }[]
}

async function evalJson(...args: string[]): Promise<{ code: number; report: Report }> {
  const { io, stdout } = fakeIO({ 'w.json': workspace })
  const code = await evalCommand(['w.json', '--json', ...args], io)
  return { code, report: JSON.parse(stdout()) as Report }
}

describe('toolstep eval', () => {
  it('runs every case, exits 1 when some fail, and --json has the documented shape with expected vs actual', async () => {
    const { code, report } = await evalJson('--concurrency', '2')
    expect(code).toBe(1)
    expect(Object.keys(report)).toEqual(['cases', 'passed', 'failed', 'results'])
    expect(report).toMatchObject({ cases: 5, passed: 3, failed: 2 })
    expect(report.results.map((r) => [r.id, r.passed])).toEqual([
      ['paris-model', true],
      ['math-scripted', true],
      ['both-set', true],
      ['wrong-city', false],
      ['too-many-steps', false],
    ])
    expect(report.results[3]!.assertions[0]).toEqual({ type: 'tool-args-match', passed: false, expected: { tool: 'get_weather', arguments: { city: 'Paris' } }, actual: [{ city: 'Lyon' }] })
    expect(report.results[4]!.assertions.map((a) => a.passed)).toEqual([false, true])
  }, 60_000)

  it('--shard K/N: the union of the shards is exactly one full run', async () => {
    const full = await evalJson()
    const shards = [await evalJson('--shard', '1/3'), await evalJson('--shard=2/3'), await evalJson('--shard', '3/3')]
    const ids = shards.flatMap((s) => s.report.results.map((r) => r.id))
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(full.report.results.map((r) => r.id).sort())
    const byId = new Map(shards.flatMap((s) => s.report.results).map((r) => [r.id, r]))
    for (const result of full.report.results) expect(byId.get(result.id)).toEqual(result)
    expect(shards.reduce((n, s) => n + s.report.failed, 0)).toBe(full.report.failed)
    // A shard exits 0 exactly when its own cases pass.
    for (const s of shards) expect(s.code).toBe(s.report.failed === 0 ? 0 : 1)
  }, 120_000)

  it('prints a readable report ending in "N passed, N failed" and writes JUnit XML', async () => {
    const { io, stdout, written } = fakeIO({ 'w.json': workspace })
    expect(await evalCommand(['w.json', '--junit', 'out/junit.xml', '--shard', '1/1'], io)).toBe(1)
    expect(stdout()).toMatch(/✗ wrong-city {2}\(final_answer\)\n {4}tool-args-match: expected \{"tool":"get_weather","arguments":\{"city":"Paris"\}\}, actual \[\{"city":"Lyon"\}\]/)
    expect(stdout()).toMatch(/Tool-selection accuracy 100\.0%, argument accuracy 66\.7%, end-to-end success 60\.0%/)
    expect(stdout().trimEnd().split('\n').at(-1)).toBe('3 passed, 2 failed')
    const xml = written['out/junit.xml']!
    expect(xml).toMatch(/<testsuite name="w\.json \(shard 1\/1\)" tests="5" failures="2"/)
    expect(xml).toMatch(/<testcase classname="[^"]+" name="wrong-city" time="[\d.]+">\n\s+<failure message="tool-args-match: expected/)
  }, 60_000)

  it('exits 0 when every case passes', async () => {
    const passing = writeWorkspace({ tools: weather.tools, model: weather.model, input: '', settings: { protocol: 'openai', maxSteps: 6, systemPrompt: '' }, cases: [cases[1]] as never })
    const { io, stdout } = fakeIO({ 'w.json': passing })
    expect(await evalCommand(['w.json'], io)).toBe(0)
    expect(stdout()).toMatch(/1 passed, 0 failed\n$/)
  }, 30_000)

  it('--help lists every assertion type; usage and load errors exit 2', async () => {
    const help = fakeIO()
    expect(await evalCommand(['--help'], help.io)).toBe(0)
    for (const type of ASSERTION_TYPES) expect(help.stdout()).toContain(`  ${type} `)
    const noCases = writeWorkspace({ tools: weather.tools, model: weather.model, input: 'x', settings: { protocol: 'openai', maxSteps: 3, systemPrompt: '' } })
    const { io, stderr } = fakeIO({ 'w.json': workspace, 'none.json': noCases, 'bad.json': workspace.replace('"tool-used"', '"tool-usd"') })
    expect(await evalCommand([], io)).toBe(2)
    expect(await evalCommand(['w.json', '--shard', '4/3'], io)).toBe(2)
    expect(await evalCommand(['w.json', '--concurrency', '0'], io)).toBe(2)
    expect(await evalCommand(['w.json', '--junit', '/nonexistent/x.xml', '--shard', '1/99'], io)).toBe(2)
    expect(await evalCommand(['none.json'], io)).toBe(2)
    expect(await evalCommand(['bad.json'], io)).toBe(2)
    expect(await evalCommand(['missing.json'], io)).toBe(2)
    expect(stderr()).toMatch(/--shard takes K\/N/)
    expect(stderr()).toMatch(/has no "cases"/)
    expect(stderr()).toMatch(/cases\[0\]\.assertions\[0\]/)
    expect(stderr()).toMatch(/cannot write \/nonexistent\/x\.xml/)
  }, 30_000)

  it("the README's complete workspace example uses every assertion type and passes", async () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')
    const example = /A complete workspace with every type:\n\n```json\n([\s\S]*?)\n```/.exec(readme)?.[1] ?? ''
    const types = new Set((JSON.parse(example) as { cases: { assertions: { type: string }[] }[] }).cases.flatMap((c) => c.assertions.map((a) => a.type)))
    expect([...types].sort()).toEqual([...ASSERTION_TYPES].sort())
    const { io, stdout } = fakeIO({ 'readme.json': example })
    expect(await evalCommand(['readme.json'], io)).toBe(0)
    expect(stdout()).toMatch(/2 passed, 0 failed\n$/)
  }, 30_000)
})
