import { afterEach, describe, expect, it, vi } from 'vitest'
import type { JsonValue } from '../../messages'
import { fixtureCases, protocolOf } from '../../../test/fixture-cases'
import { getProtocol, protocols } from '../index'
import type { RenderableOutput } from '../types'
import { createStreamParser } from '../index'
import { JsonStreamReader } from './json-stream-reader'
import type { StreamSnapshot } from './types'
import { seededRandom as random } from '../../../test/fuzz-inputs'


/** Splits `text` at random places: mostly small pieces, sometimes large ones, sometimes empty. */
function chunk(text: string, next: () => number): string[] {
  const pieces: string[] = []
  const scale = [1, 3, 8, 40][Math.floor(next() * 4)] ?? 1
  let pos = 0
  while (pos < text.length) {
    const size = Math.floor(next() * scale * 2)
    pieces.push(text.slice(pos, pos + size))
    pos += size
  }
  return pieces
}

function stream(protocolId: string, pieces: readonly string[]): { snapshots: StreamSnapshot[]; parser: ReturnType<typeof createStreamParser> } {
  const parser = createStreamParser(protocolId)
  const snapshots = pieces.map((piece) => parser.push(piece))
  return { snapshots, parser }
}

const renderable: RenderableOutput[] = [
  { calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  { text: 'Let me check both.', calls: [{ name: 'get_weather', arguments: { city: 'Zürich 東京 😀' } }, { name: 'get_time', arguments: { timezone: 'Asia/Tokyo' } }] },
  { calls: [{ name: 'list_printers', arguments: {} }] },
  { calls: [{ name: 'add', arguments: { a: 1, b: 2.5, flags: [true, false], note: null, nested: { q: 'say "hi" } done' } } }] },
  { text: 'No tool needed.', calls: [] },
]

/** Every raw output the tests stream: all fixtures, and every protocol's rendering of a few outputs. */
const inputs: string[] = [
  ...fixtureCases.map((testCase) => testCase.raw),
  ...protocols.flatMap((protocol) => renderable.map((output) => protocol.render(output))),
]

describe('createStreamParser', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('ends with the one-shot result for every protocol, input and chunking', () => {
    // Six random chunkings of every input for every protocol: the work grows with the square of
    // the number of protocols (inputs include each one's renderings), so this stays well within
    // the test timeout on a loaded machine.
    for (let seed = 1; seed <= 6; seed++) {
      const next = random(seed)
      for (const raw of inputs) {
        const pieces = chunk(raw, next)
        expect(pieces.join('')).toBe(raw)
        for (const protocol of protocols) {
          const { snapshots, parser } = stream(protocol.id, pieces)
          const last = snapshots[snapshots.length - 1]
          if (last) expect(last.received).toBe(raw.length)
          expect(parser.end(), `${protocol.id} seed ${seed} on ${JSON.stringify(raw).slice(0, 80)}`).toEqual(protocol.parse(raw))
        }
      }
    }
  })

  it('reads the same calls incrementally as the one-shot parser once each fixture has arrived', () => {
    const incremental = new Set(['json', 'llama3-json', 'xml-tag', 'openai'])
    let compared = 0
    for (const testCase of fixtureCases) {
      const protocolId = protocolOf(testCase)
      if (protocolId === undefined || !incremental.has(protocolId)) continue
      const expected = getProtocol(protocolId)?.parse(testCase.raw)
      if (!expected || expected.errors.length > 0) continue
      for (let seed = 1; seed <= 5; seed++) {
        const { snapshots } = stream(protocolId, chunk(testCase.raw, random(seed * 7919)))
        const last = snapshots[snapshots.length - 1]
        if (!last || last.reading !== 'incremental') continue
        compared++
        const calls = [...last.calls, ...(last.forming ? [last.forming] : [])]
        expect(
          calls.map((call) => ({ name: call.name, arguments: call.arguments })),
          `${testCase.id} seed ${seed}`,
        ).toEqual(expected.calls.map((call) => ({ name: call.name, arguments: call.arguments })))
      }
    }
    expect(compared).toBeGreaterThan(50)
  })

  it('shows the call being formed with its name and partial arguments (json)', () => {
    const raw = 'Checking.\n```json\n{"tool": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n```\nDone.'
    const parser = createStreamParser('json')
    const seen: { name: string | undefined; arguments: string }[] = []
    let snapshot: StreamSnapshot | undefined
    for (const char of raw) {
      snapshot = parser.push(char)
      if (snapshot.forming) seen.push({ name: snapshot.forming.name, arguments: JSON.stringify(snapshot.forming.arguments) })
    }
    // The name appears only once its string has ended; the city grows character by character.
    expect(seen.some((entry) => entry.name === undefined)).toBe(true)
    expect(seen.some((entry) => entry.name === 'get_wea')).toBe(false)
    expect(seen).toContainEqual({ name: 'get_weather', arguments: '{"city":"Par"}' })
    expect(seen).toContainEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' })
    expect(snapshot?.forming).toBeUndefined()
    expect(snapshot?.calls).toEqual([{ name: 'get_weather', arguments: { city: 'Paris', days: 3 }, complete: true }])
    expect(snapshot?.text).toBe('Checking.\nDone.')
    expect(snapshot?.reading).toBe('incremental')
    expect(parser.end().text).toBe('Checking.\nDone.')
  })

  it('reads tags split across chunks, several calls, and hides reasoning (xml-tag)', () => {
    const raw = '<think>maybe <tool_call>{"name": "no"}</tool_call></think>Sure.\n<tool_call>\n{"name": "a", "arguments": {"x": 1}}\n</tool_call>\n<function=b>{"y": "two"}</function>'
    for (const size of [1, 2, 3, 5, 7]) {
      const pieces: string[] = []
      for (let at = 0; at < raw.length; at += size) pieces.push(raw.slice(at, at + size))
      const parser = createStreamParser('xml-tag')
      const formed: string[] = []
      const snapshots = pieces.map((piece) => {
        const snapshot = parser.push(piece)
        // The forming call's arguments grow in place, so record them as they are now.
        if (snapshot.forming) formed.push(`${snapshot.forming.name}:${JSON.stringify(snapshot.forming.arguments)}`)
        return snapshot
      })
      const last = snapshots[snapshots.length - 1]
      expect(last?.reading).toBe('incremental')
      expect(last?.calls.map((call) => [call.name, call.arguments])).toEqual([
        ['a', { x: 1 }],
        ['b', { y: 'two' }],
      ])
      expect(last?.text).toBe('Sure.')
      if (size === 1) expect(formed).toContain('b:{"y":"tw"}')
      expect(formed.some((entry) => entry.startsWith('b:'))).toBe(true)
    }
  })

  it('decodes the arguments string of a native message as it arrives (openai)', () => {
    const raw = JSON.stringify({ role: 'assistant', content: 'On it.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search', arguments: JSON.stringify({ query: 'caf\u00e9 "quoted"', limit: 5 }) } }] })
    const parser = createStreamParser('openai')
    const formed: string[] = []
    const snapshots = [...raw].map((char) => {
      const snapshot = parser.push(char)
      if (snapshot.forming) formed.push(`${snapshot.forming.id}:${snapshot.forming.name}:${JSON.stringify(snapshot.forming.arguments)}`)
      return snapshot
    })
    expect(formed).toContain('call_1:search:{"query":"café \\"quo"}')
    const last = snapshots[snapshots.length - 1]
    expect(last?.calls).toEqual([{ name: 'search', arguments: { query: 'café "quoted"', limit: 5 }, id: 'call_1', complete: true }])
    expect(last?.text).toBe('On it.')
  })

  it('falls back to re-parsing, with the lengths parsed summing to a bounded multiple of the output', () => {
    const protocol = getProtocol('pythonic')
    if (!protocol) throw new Error('pythonic is registered')
    const spy = vi.spyOn(protocol, 'parse')
    const raw = `[${Array.from({ length: 400 }, (_, index) => `f(a=${index}, b="x")`).join(', ')}]`
    const { snapshots } = stream('pythonic', [...raw])
    const parsed = spy.mock.calls.reduce((sum, [input]) => sum + input.length, 0)
    expect(parsed).toBeLessThan(3 * raw.length + 64 * 16)
    expect(spy.mock.calls.length).toBeLessThan(60)
    expect(snapshots[snapshots.length - 1]?.reading).toBe('reparse')
    expect(Math.max(...snapshots.map((snapshot) => snapshot.calls.length))).toBeGreaterThan(100)
  })

  it('gives up incremental reading on bodies its scanner does not follow, and still ends right', () => {
    const raw = '<tool_call>\n<function=f>\n<parameter=x>\n1\n</parameter>\n</function>\n</tool_call>'
    const { snapshots, parser } = stream('xml-tag', [...raw])
    expect(snapshots[snapshots.length - 1]?.reading).toBe('reparse')
    expect(parser.end()).toEqual(getProtocol('xml-tag')?.parse(raw))
  })

  it('rejects an unknown protocol id', () => {
    expect(() => createStreamParser('nope')).toThrow(RangeError)
    expect(() => createStreamParser('__proto__')).toThrow(RangeError)
  })
})

describe('JsonStreamReader', () => {
  const read = (pieces: readonly string[]): JsonStreamReader => {
    const reader = new JsonStreamReader()
    for (const piece of pieces) reader.write(piece)
    return reader
  }

  it('reads lenient JSON split anywhere to the value JSON.parse gives for its strict form', () => {
    const lenient = "{'a': [1, 2.5e3, -0.5,], b: True, 'c': None, \"d\": \"x\\u00e9\\n\\\"\", 'e': {'f': 'it\\'s'},}"
    const strict: JsonValue = { a: [1, 2500, -0.5], b: true, c: null, d: 'x\u00e9\n"', e: { f: "it's" } }
    for (let size = 1; size <= lenient.length; size++) {
      const pieces: string[] = []
      for (let at = 0; at < lenient.length; at += size) pieces.push(lenient.slice(at, at + size))
      const reader = read(pieces)
      expect(reader.status, `size ${size}`).toBe('done')
      expect(reader.root, `size ${size}`).toEqual(strict)
    }
  })

  it('keeps a __proto__ key as data', () => {
    const reader = read(['{"__proto__": {"x": 1}, "y": "__proto__"}'])
    expect(Object.getPrototypeOf(reader.root)).toBe(Object.prototype)
    expect(Object.keys(reader.root ?? {})).toEqual(['__proto__', 'y'])
  })

  it('fails on a character that cannot continue the value, and says where', () => {
    const reader = new JsonStreamReader()
    expect(reader.write('{"a": 1 ')).toBe(8)
    expect(reader.write('x}')).toBe(0)
    expect(reader.status).toBe('failed')
    expect(reader.error).toContain("'x'")
  })

  it('stops at the root closer and at the depth limit', () => {
    const reader = new JsonStreamReader()
    expect(reader.write('[1] tail')).toBe(3)
    expect(reader.status).toBe('done')
    const deep = new JsonStreamReader(8)
    deep.write('['.repeat(20))
    expect(deep.status).toBe('failed')
  })

  it('reads again after a reset as a new reader would, leaving the trees it read before as they were', () => {
    const reader = new JsonStreamReader()
    reader.write('{"a": [1, {"b": 2}], "c": "d"}')
    const first = reader.root
    expect(reader.status).toBe('done')
    // A deeper failed try, then a shallower value: no container of either leaks into the next.
    reader.reset()
    reader.write('[[[{"x": [[')
    expect(reader.depth).toBe(6)
    reader.write('}')
    expect(reader.status).toBe('failed')
    reader.reset()
    expect(reader.depth).toBe(0)
    expect(reader.containerAt(0)).toBeUndefined()
    reader.write('[{"e": ')
    expect(reader.depth).toBe(2)
    expect(reader.keyAt(1)).toBe('e')
    expect(reader.containerAt(2)).toBeUndefined()
    reader.write('[3]}]')
    expect(reader.root).toEqual([{ e: [3] }])
    expect(first).toEqual({ a: [1, { b: 2 }], c: 'd' })
  })
})
