import { describe, expect, it } from 'vitest'
import { protocols } from './index'
import type { RenderableOutput } from './types'

const typed: RenderableOutput[] = [
  { calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  { text: 'Let me check both.', calls: [{ name: 'get_weather', arguments: { city: 'Zürich', unit: 'celsius' } }, { name: 'get_time', arguments: { timezone: 'Asia/Tokyo' } }] },
  { calls: [{ name: 'list_printers', arguments: {} }] },
  { calls: [{ name: 'add', arguments: { a: 1, b: 2.5, flags: [true, false], note: null, nested: { q: 'say "hi" } done' } } }] },
]
// Formats whose argument values are text on the wire (the serving stack converts them using the schema).
const textValued = new Set(['pipe', 'qwen3-coder', 'glm45', 'minimax-m2', 'seed-oss'])
const stringsOnly = typed.filter((o) => o.calls.every((c) => Object.values(c.arguments).every((v) => typeof v === 'string')))
// GLM-4 puts the name on its own line: one call per output, no prose before it.
const single = new Set(['glm4'])

describe('Protocol.render', () => {
  for (const protocol of protocols) {
    it(`${protocol.id}: parse(render(output)) gives the calls back`, () => {
      let cases = textValued.has(protocol.id) ? stringsOnly : typed
      if (single.has(protocol.id)) cases = cases.filter((o) => o.calls.length === 1 && !o.text)
      expect(cases.length).toBeGreaterThan(0)
      for (const output of cases) {
        const raw = protocol.render(output)
        const parsed = protocol.parse(raw)
        expect(parsed.errors, raw).toEqual([])
        expect(parsed.calls.map((c) => ({ name: c.name, arguments: c.arguments })), raw).toEqual(output.calls)
        if (output.text && !protocol.native) expect(parsed.text, raw).toBe(output.text)
      }
    })
  }
})

describe('auto', () => {
  it('detects every native and text format from its own rendered output', async () => {
    const { auto } = await import('./index')
    for (const protocol of protocols.filter((p) => p.id !== 'auto')) {
      const raw = protocol.render({ calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] })
      const parsed = auto.parse(raw)
      expect(parsed.calls.map((c) => c.name), `${protocol.id}: ${raw}`).toEqual(['get_weather'])
    }
  })
})

describe('json: a call that is not valid JSON', () => {
  it('is an invalid_json error naming the tool and the position, not prose', async () => {
    const { getProtocol } = await import('./index')
    const json = getProtocol('json')!
    const broken = json.parse('Sure.\n```json\n{"tool": "get_weather", "arguments": {"city": Paris}}\n```')
    expect(broken.calls).toEqual([])
    expect(broken.errors).toMatchObject([{ code: 'invalid_json', message: expect.stringMatching(/^The call to "get_weather" is not valid JSON: .*'Paris'/) }])
    // Broken data that does not look like a call stays prose.
    expect(json.parse('The record {"name": "Ada", "age": } was broken.').errors).toEqual([])
  })
})
