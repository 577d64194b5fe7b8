import { describe, expect, it } from 'vitest'
import { fixtureCases, protocolOf } from '../../test/fixture-cases'
import { fakeIO } from '../../test/fake-io'
import { parseCommand } from './parse'


const hermes = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>'

describe('toolstep parse', () => {
  it('prints exactly the contract object for a file, detecting the format', async () => {
    const fake = fakeIO({ 'out.txt': hermes })
    expect(await parseCommand(['out.txt'], fake.io)).toBe(0)
    const printed = JSON.parse(fake.stdout()) as Record<string, unknown>
    expect(Object.keys(printed)).toEqual(['protocol', 'calls', 'text', 'repairs', 'errors'])
    expect(printed).toEqual({ protocol: 'xml-tag', calls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }], text: '', repairs: [], errors: [] })
    expect(fake.stdout().endsWith('\n')).toBe(true)
  })

  it('reads standard input for - or no file, and honours --protocol', async () => {
    for (const argv of [['-', '--protocol', 'json'], ['--protocol=json']]) {
      const fake = fakeIO({}, 'No call here.')
      expect(await parseCommand(argv, fake.io)).toBe(0)
      expect(JSON.parse(fake.stdout())).toMatchObject({ protocol: 'json', calls: [], text: 'No call here.' })
    }
  })

  it('exits 0 and reports the error when the call was cut off', async () => {
    const testCase = fixtureCases.find((candidate) => candidate.id === 's-oai-07')
    const fake = fakeIO({}, testCase?.raw ?? '')
    expect(await parseCommand(['--protocol', 'openai'], fake.io)).toBe(0)
    const printed = JSON.parse(fake.stdout()) as { calls: unknown[]; errors: { code: string }[] }
    expect(printed.calls).toEqual([])
    expect(printed.errors.map((error) => error.code)).toEqual(['truncated'])
    // A complete message whose arguments string is cut off: the contract's error shape only (code, message, span).
    const cut = fakeIO({}, JSON.stringify({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a": 1' } }] }))
    expect(await parseCommand(['--protocol', 'openai'], cut.io)).toBe(0)
    const errors = (JSON.parse(cut.stdout()) as { errors: { code: string }[] }).errors
    expect(errors.map((error) => [error.code, Object.keys(error).sort()])).toEqual([['truncated', ['code', 'message', 'span']]])
  })

  it('answers every fixture line in --jsonl mode with the same id', async () => {
    const cases = fixtureCases.filter((testCase) => protocolOf(testCase) !== undefined)
    const input = cases.map((testCase, index) => JSON.stringify(index % 2 === 0 ? { id: testCase.id, raw: testCase.raw } : { id: testCase.id, raw: testCase.raw, protocol: protocolOf(testCase) })).join('\n')
    const fake = fakeIO({}, `${input}\n\n`)
    expect(await parseCommand(['--jsonl'], fake.io)).toBe(0)
    const lines = fake.stdout().trimEnd().split('\n').map((line) => JSON.parse(line) as { id: string; calls: unknown[]; text: string; errors: unknown[] })
    expect(lines.map((line) => line.id)).toEqual(cases.map((testCase) => testCase.id))
    lines.forEach((line, index) => {
      const testCase = cases[index]
      if (!testCase) return
      if (testCase.expect_error) expect(line.errors.length).toBeGreaterThan(0)
      else expect(line.calls).toEqual(testCase.expected.calls)
      if (testCase.expected.text !== null && !testCase.expect_error) expect(line.text).toBe(testCase.expected.text)
    })
  })

  it('keeps going past bad --jsonl lines, answering each', async () => {
    const input = ['not json', JSON.stringify({ id: 7, raw: 5 }), JSON.stringify({ id: 'x', raw: 'hi', protocol: 'nope' }), JSON.stringify({ id: 'ok', raw: hermes })].join('\n')
    const fake = fakeIO({}, input)
    expect(await parseCommand(['--jsonl', '--protocol', 'xml-tag'], fake.io)).toBe(0)
    const lines = fake.stdout().trimEnd().split('\n').map((line) => JSON.parse(line) as { id: unknown; protocol: unknown; calls: unknown[]; errors: { code: string }[] })
    expect(lines.map((line) => [line.id, line.errors[0]?.code])).toEqual([
      [null, 'invalid_input'],
      [7, 'invalid_input'],
      ['x', 'unknown_protocol'],
      ['ok', undefined],
    ])
    expect(lines[3]?.protocol).toBe('xml-tag')
    expect(fake.stderr()).toContain('line 1')
  })

  it.each([
    [['--bogus'], 'unknown option "--bogus"'],
    [['--protocol', 'nope'], 'unknown protocol "nope"'],
    [['--protocol'], '--protocol needs'],
    [['missing.txt'], 'cannot read "missing.txt"'],
    [['a.txt', 'b.txt'], 'only one input file'],
  ])('exits 2 on usage errors: %j', async (argv, message) => {
    const fake = fakeIO()
    expect(await parseCommand(argv, fake.io)).toBe(2)
    expect(fake.stderr()).toContain(message)
    expect(fake.stdout()).toBe('')
  })

  it('prints help on --help', async () => {
    const fake = fakeIO()
    expect(await parseCommand(['--help'], fake.io)).toBe(0)
    expect(fake.stdout()).toContain('Usage: toolstep parse')
  })
})
