import { describe, expect, it } from 'vitest'
import { formats, getProtocol } from './index'

// An output cut off anywhere inside a call is never silent prose: it is a truncated error, or the
// call with a named repair when only closers were missing after a complete value. Every cut
// point of every format's own rendering is tried.
const args = { e: [1], o: { k: 'v' }, c: 'hello world' }

describe('a call cut off anywhere', () => {
  it.each(formats.map((protocol) => [protocol.id, protocol] as const))('%s: is a truncated or invalid error with a span, or the whole call', (_id, protocol) => {
    const raw = protocol.render({ text: protocol.native ? undefined : 'Let me check.', calls: [{ name: 'get_weather', arguments: args }] })
    const full = protocol.parse(raw)
    const call = full.calls[0]
    // Pipe values are strings by design: compare with the format's own reading of the whole call.
    const whole = JSON.stringify(call?.arguments)
    expect(call?.name).toBe('get_weather')
    // GLM-4's name line alone is also a line of prose: the call starts with its JSON.
    const from = protocol.id === 'glm4' ? (call?.spans.arguments?.start ?? 0) : (call?.spans.name?.end ?? call?.spans.call.start ?? 0)
    const silent: string[] = []
    const partial: string[] = []
    for (let cut = from + 1; cut < (call?.spans.call.end ?? raw.length); cut++) {
      const result = protocol.parse(raw.slice(0, cut))
      // `[TOOL: name]` alone is a whole call without arguments ([ARGS] is optional in the format).
      if (protocol.id === 'bracket' && /\]\s*$/.test(raw.slice(0, cut)) && !raw.slice(0, cut).includes('[ARGS')) continue
      if (result.calls.length > 0) {
        // A call returned from a cut output is the whole call, or says which closers it supplied
        // after a complete value (the JSON reader's missing_closer policy, also for close tags).
        const said = result.repairs.some((repair) => repair.code === 'missing_closer' || repair.code === 'missing_close_tag')
        if (JSON.stringify(result.calls[0]?.arguments) !== whole && !said) partial.push(raw.slice(0, cut))
      } else if (!result.errors.some((error) => error.span !== undefined && (error.code === 'truncated' || error.code === 'invalid_json' || error.code === 'invalid_arguments'))) {
        silent.push(raw.slice(0, cut))
      }
    }
    expect(silent, 'cut points read as prose').toEqual([])
    expect(partial, 'cut points read as a shorter call').toEqual([])
  })

  it.each([
    ['json', '{"name": "f", "arguments": {"a": 1},'],
    ['json', '{"name":"f","arguments":{"e":[1],"c":"hel'],
    ['json', 'Sure: {"name":"f","arguments":{"e":{"x":1},"c":"hel'],
    ['xml-tag', '<tool_call>{"name": "f", "arguments": {"a": 1},'],
    ['auto', '{"name": "f", "arguments": {"a": 1},'],
    ['auto', '{"name":"f","arguments":{"e":[1],"c":"hel'],
  ])('%s: %s', (id, raw) => {
    const result = getProtocol(id)?.parse(raw)
    expect(result?.calls).toEqual([])
    expect(result?.errors[0]).toMatchObject({ code: 'truncated', span: { end: raw.length } })
  })
})
