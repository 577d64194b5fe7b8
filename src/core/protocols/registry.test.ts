import { describe, expect, it } from 'vitest'
import { createAuto, detectCandidates } from './auto'
import { createStreamParser, formats, getProtocol, protocols } from './index'
import { defineTextProtocol } from './shared/define'
import { defineMarkers, detectMarkers } from './shared/detect'
import type { Protocol } from './types'

const call = { name: 'get_weather', arguments: { city: 'Paris' } }

describe('every protocol describes itself', () => {
  it.each(formats.map((protocol) => [protocol.id, protocol] as const))('%s detects its own example and rendered output at their start', (_id, protocol) => {
    for (const raw of [protocol.example, protocol.render({ calls: [call] })]) {
      const detection = protocol.detect(raw)
      expect(detection, raw).toBeDefined()
      const first = protocol.parse(raw).calls[0]
      expect(first, raw).toBeDefined()
      // At the call or before it (at its marker, its message, its reasoning-free header).
      expect(detection?.at, raw).toBeLessThanOrEqual(first?.spans.call.start ?? -1)
      expect(detection?.reason).not.toBe('')
    }
  })

  it.each(formats.map((protocol) => [protocol.id, protocol] as const))('%s finds no call in plain prose', (_id, protocol) => {
    expect(protocol.detect('The weather in Paris is mild today; no tool is needed (really).')).toBeUndefined()
  })

  it.each(protocols.map((protocol) => [protocol.id, protocol] as const))('%s streams through its own scanner to the one-shot result', (_id, protocol) => {
    const raw = protocol.render({ text: protocol.native ? undefined : 'Checking.', calls: [call] })
    const parser = createStreamParser(protocol)
    let last
    for (let at = 0; at < raw.length; at += 7) last = parser.push(raw.slice(at, at + 7))
    expect(parser.end()).toEqual(protocol.parse(raw))
    expect(last?.reading).toBe(protocol.createScanner().reading)
  })
})

describe('auto iterates the registry', () => {
  it('reads a format it was not written for once that format is in the registry', () => {
    const markers = defineMarkers('<<call ')
    const custom: Protocol = defineTextProtocol({
      id: 'test-angle',
      label: 'Test',
      description: 'A test format: <<call NAME>>.',
      collect: (builder) => {
        const at = builder.view.indexOf('<<call ')
        const end = builder.view.indexOf('>>', at)
        if (at < 0 || end < 0) return
        builder.addCall({ name: builder.view.slice(at + 7, end), arguments: {}, spans: { call: { start: at, end: end + 2 } } })
        builder.consume(at, end + 2)
      },
      detect: (raw, before) => detectMarkers(raw, markers, before),
      rules: [],
      renderCall: (name) => `<<call ${name}>>`,
      example: '<<call get_time>>',
    })
    const raw = 'Sure. <<call get_time>>'
    expect(getProtocol('auto')?.parse(raw).calls).toEqual([])
    const auto = createAuto(() => [...formats, custom])
    expect(auto.parse(raw)).toMatchObject({ protocol: 'test-angle', calls: [{ name: 'get_time' }], text: 'Sure.' })
  })

  it('tries more candidates on a short output than its extra parses may read on a long one', () => {
    const parsed: string[] = []
    // Five formats that each see a call (at offsets 0…4) and read none.
    const blind = (index: number): Protocol => ({
      ...defineTextProtocol({ id: `blind-${index}`, label: '', description: '', collect: () => {}, detect: () => undefined, rules: [], renderCall: () => '', example: '' }),
      detect: (_raw, before) => (before === undefined || index < before ? { at: index, confidence: 0.5, reason: `blind ${index}` } : undefined),
      parse: (raw) => {
        parsed.push(`blind-${index}`)
        return { calls: [], repairs: [], errors: [], text: raw, protocol: `blind-${index}` }
      },
    })
    const auto = createAuto(() => [0, 1, 2, 3, 4].map(blind))
    const short = 'no call here'
    expect(auto.parse(short).detection).toMatch(/blind-3 at offset 3 found no call\)/)
    expect(parsed).toEqual(['blind-0', 'blind-1', 'blind-2', 'blind-3'])
    parsed.length = 0
    // Over 64 K characters, the parses after the first may read twice the output: three in all.
    const long = 'word '.repeat(20_000)
    expect(auto.parse(long).detection).toMatch(/blind-2 at offset 2 found no call\)/)
    expect(parsed).toEqual(['blind-0', 'blind-1', 'blind-2'])
  })

  it('chooses the earliest call start, not a fixed token order', () => {
    // <|python_tag|> used to win over any <tool_call> because it came first in a token list.
    const raw = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\nThen maybe <|python_tag|>{"name": "other", "parameters": {}}'
    const result = getProtocol('auto')?.parse(raw)
    expect(result?.protocol).toBe('xml-tag')
    expect(result?.calls.map((c) => c.name)).toEqual(['get_weather'])
    expect(result?.detection).toMatch(/offset 0/)
    const late = getProtocol('auto')?.parse('I will call it now. <|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}')
    expect(late?.protocol).toBe('llama3-json')
  })

  it('lists every candidate earliest first', () => {
    const raw = 'x [TOOL_CALLS][{"name": "a", "arguments": {}}] and <tool_call>{"name": "b", "arguments": {}}</tool_call>'
    const candidates = detectCandidates(raw, formats)
    expect(candidates[0]?.protocol.id).toBe('mistral')
    expect(candidates.map((c) => c.detection.at)).toEqual([...candidates.map((c) => c.detection.at)].sort((a, b) => a - b))
  })

  it('falls back to the next candidate when the earliest one reads no call, and says so', () => {
    const raw = 'note(this) is prose, then {"tool": "get_weather", "arguments": {"city": "Paris"}}'
    const result = getProtocol('auto')?.parse(raw)
    expect(result?.calls.map((c) => c.name)).toEqual(['get_weather'])
  })

  it("passes on everything the chosen format's reading holds, reasoning included", () => {
    const outputs = [
      '<think>The user wants the weather.</think>{"tool": "get_weather", "arguments": {"city": "Paris"}}',
      '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call> and {"broken": ',
      'Just text.',
    ]
    for (const raw of outputs) {
      const parsed = getProtocol('auto')?.parse(raw)
      const chosen = getProtocol(parsed?.protocol ?? '')?.parse(raw)
      const { detection, detectionPhrase, ...rest } = parsed ?? {}
      expect(detection).toEqual(expect.any(String))
      expect(detectionPhrase).toBeDefined()
      expect(rest).toEqual(chosen)
    }
    expect(getProtocol('auto')?.parse(outputs[0] ?? '').reasoning).toBe('The user wants the weather.')
  })
})

describe('auto: item cases', () => {
  const parse = (raw: string) => getProtocol('auto')?.parse(raw)

  it('reads an OpenAI tool_calls array in prose as OpenAI, not as Anthropic content blocks', () => {
    const raw = 'Calling:\n[{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}]'
    expect(parse(raw)).toMatchObject({ protocol: 'openai', calls: [{ name: 'get_weather', id: 'call_1', arguments: { city: 'Paris' } }], text: 'Calling:' })
  })

  it('does not take a word before a call object for a GLM-4 tool name', () => {
    const result = parse('okay\n{"name": "get_weather", "arguments": {"city": "Paris"}}')
    expect(result?.protocol).toBe('json')
    expect(result?.calls.map((c) => c.name)).toEqual(['get_weather'])
    expect(result?.text).toBe('okay')
  })

  it('still reads the GLM-4 layout itself', () => {
    expect(parse('get_weather\n{"city": "Paris"}')).toMatchObject({ protocol: 'glm4', calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] })
  })
})
