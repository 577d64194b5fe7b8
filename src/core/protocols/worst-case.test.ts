import { afterEach, describe, expect, it, vi } from 'vitest'
import { findJsonValues } from '../json'
import { keylessEnd } from '../json/read-strict'
import { MAX_LISTED_ERRORS } from './shared/parse-builder'
import { bracket } from './bracket'
import { createStreamParser, getProtocol } from './index'
import { pipe } from './pipe'
import { pythonic } from './pythonic'
import { JsonStreamReader } from './stream/json-stream-reader'
import { ProseText } from './stream/prose-text'
import { ReparseScanner } from './stream/reparse-scanner'

// Worst-case inputs (`npx tsx scripts/worst-case.ts` finds them; `npm run bench parse` times them as
// ratios). These tests count work, not time: what a parse builds must not grow with the number of
// failures in an output beyond a constant.
describe('worst-case inputs', () => {
  it('lists at most MAX_LISTED_ERRORS errors and counts the rest in one more_errors entry', () => {
    const raw = '[TOOL:f'.repeat(10_000)
    for (const protocol of [pipe, bracket]) {
      const result = protocol.parse(raw)
      expect(result.errors).toHaveLength(MAX_LISTED_ERRORS + 1)
      expect(result.errors.slice(0, MAX_LISTED_ERRORS).every((error) => error.code === 'invalid_call')).toBe(true)
      const last = result.errors[MAX_LISTED_ERRORS]
      expect(last?.code).toBe('more_errors')
      expect(last?.message).toBe(`${10_000 - MAX_LISTED_ERRORS} more errors like these are not listed (only the first ${MAX_LISTED_ERRORS} are).`)
      expect(last?.phrase).toEqual({ key: 'moreErrors', params: { count: 10_000 - MAX_LISTED_ERRORS, max: MAX_LISTED_ERRORS } })
    }
  })

  it('reads no call out of JSON values without a name key: {} and {"a": 1} repeated cost no call reading per value', () => {
    for (const id of ['json', 'llama3-json']) {
      for (const unit of ['{}', '{"a": 1} ', '[{}]', '[{"a": [1]}]']) {
        const keys = vi.spyOn(Object, 'keys')
        const result = getProtocol(id)?.parse(unit.repeat(1000))
        // Before: every value was read as a call object (Object.keys, the name and arguments keys looked up, a reading built).
        expect(keys.mock.calls.length, `${id} ${unit}`).toBeLessThan(10)
        keys.mockRestore()
        expect(result?.calls, `${id} ${unit}`).toEqual([])
        expect(result?.text, `${id} ${unit}`).toBe(unit.repeat(1000).trim())
      }
    }
    expect(getProtocol('json')?.parse('{"a": 1} {"tool": "f", "arguments": {}} [{"b": 2}, {"name": "g", "arguments": {"c": 3}}]').calls.map((call) => call.name)).toEqual(['f', 'g'])
  })

  it('writes the messages of the listed errors only: a failed call past MAX_LISTED_ERRORS is counted, its message never written', () => {
    for (const [id, unit] of [['bracket', '[TOOL: f] [ARGS: {f(a='], ['mistral', '[TOOL_CALLS]f[ARGS]{f(a='], ['magistral', 'f(a=[TOOL_CALLS]f[ARGS]{'], ['pipe', '[TOOL:f']] as const) {
      // Every message lowers the first letter of the reader's message it quotes (`lowerFirst`).
      const lower = vi.spyOn(String.prototype, 'toLowerCase')
      const result = getProtocol(id)?.parse(unit.repeat(1000))
      const lowered = lower.mock.calls.length
      lower.mockRestore()
      // Before: one message per failed call, 1000.
      expect(lowered, id).toBeLessThanOrEqual(MAX_LISTED_ERRORS + 5)
      expect(result?.errors, id).toHaveLength(MAX_LISTED_ERRORS + 1)
      expect(result?.errors.slice(0, MAX_LISTED_ERRORS), id).toEqual(getProtocol(id)?.parse(unit.repeat(MAX_LISTED_ERRORS + 1)).errors.slice(0, MAX_LISTED_ERRORS))
    }
  })

  it('keeps the errors of an output with no more than MAX_LISTED_ERRORS of them as they were', () => {
    const raw = '[TOOL:f'.repeat(MAX_LISTED_ERRORS) + '[TOOL:g|a=1]'
    const result = pipe.parse(raw)
    expect(result.errors).toHaveLength(MAX_LISTED_ERRORS)
    expect(result.errors.every((error) => error.code === 'invalid_call')).toBe(true)
    expect(result.errors[1]).toEqual({
      code: 'invalid_call',
      message: "Expected ']' or '|' after the tool name \"f\" at offset 14, found '['.",
      phrase: { key: 'bracketExpectedClose', params: { name: 'f', offset: 14, found: '[' } },
      span: { start: 7, end: 14 },
    })
    expect(result.calls).toEqual([expect.objectContaining({ name: 'g', arguments: { a: '1' } })])
  })

  it('reads no [( whose ( cannot open a tuple once the invalid candidates to report are listed ([(,[(,)', () => {
    const raw = `a ${'(,['.repeat(1000)}] b`
    for (const id of ['json', 'llama3-json', 'openai']) {
      // A failed lenient read names the character it stopped at (String.fromCodePoint).
      const named = vi.spyOn(String, 'fromCodePoint')
      const result = getProtocol(id)?.parse(raw)
      const reads = named.mock.calls.length
      named.mockRestore()
      // Before: a read per [(, (1000).
      expect(reads, id).toBeLessThan(20)
      expect(result?.calls, id).toEqual([])
      expect(result?.text, id).toBe(raw)
    }
    // The first candidates are still read and listed, as before.
    const invalid = findJsonValues(raw).invalid ?? []
    expect(invalid.map((failure) => [failure.start, failure.error.offset])).toEqual(Array.from({ length: 8 }, (_, index) => [4 + 3 * index, 6 + 3 * index]))
    expect(invalid[0]?.error.message).toBe("Expected a JSON value at offset 6, found ','.")
  })

  it('builds no JSON value without keys ([1], [{}], ["a", 2]) in prose, and reads the calls among them as before', () => {
    const units = ['[1]', '[{}]', '["a", 2] ', '[[1, [true]], {}]', '[-0.5e3]']
    const call = '{"tool": "f", "arguments": {"x": [1]}}'
    for (const id of ['json', 'llama3-json', 'openai']) {
      for (const unit of units) {
        const raw = `a ${unit.repeat(1000)} b`
        // Each value read by the strict path is built by one JSON.parse.
        const parse = vi.spyOn(JSON, 'parse')
        const result = getProtocol(id)?.parse(raw)
        const built = parse.mock.calls.length
        parse.mockRestore()
        // Before: one JSON.parse per value (1000).
        expect(built, `${id} ${unit}`).toBeLessThan(10)
        expect(result?.calls, `${id} ${unit}`).toEqual([])
        expect(result?.text, `${id} ${unit}`).toBe(raw)
      }
    }
    const mixed = `${'[1]'.repeat(50)} ${call} [{"b": 1}] [2] ${call}`
    expect(getProtocol('json')?.parse(mixed).calls.map((found) => [found.name, found.arguments, found.spans.call])).toEqual([
      ['f', { x: [1] }, { start: 151, end: 151 + call.length }],
      ['f', { x: [1] }, { start: mixed.length - call.length, end: mixed.length }],
    ])
  })

  it('skips a value without keys exactly where reading it would end, and reports the same failures around it', () => {
    const next = (() => {
      let state = 7
      return () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648)
    })()
    const alphabet = ['[', ']', '{', '}', ',', ' ', '1', '-', '.', 'true', '"a"', '"', "'", ':', '(', '"tool": "f"', '"arguments": {}', 'x']
    for (let index = 0; index < 3000; index++) {
      let text = ''
      const pieces = 1 + Math.floor(next() * 24)
      for (let piece = 0; piece < pieces; piece++) text += alphabet[Math.floor(next() * alphabet.length)] ?? ''
      const all = findJsonValues(text, { spanDepth: 3 })
      const skipping = findJsonValues(text, { spanDepth: 3, skipKeyless: true })
      const keyed = all.values.filter((value) => keylessEnd(text, value.start, 512) < 0)
      expect(skipping, JSON.stringify(text)).toEqual({ ...all, values: keyed })
    }
  })

  it('reads no [ whose number cannot be read ([-[-, [1e[1e, [1.x) once the invalid candidates to report are listed', () => {
    for (const unit of ['[-', '[1e', '[1.x', '[-1.e+]']) {
      const raw = `a ${unit.repeat(1000)} b`
      for (const id of ['json', 'llama3-json', 'openai']) {
        // A failed lenient read names the character it stopped at (String.fromCodePoint).
        const named = vi.spyOn(String, 'fromCodePoint')
        const result = getProtocol(id)?.parse(raw)
        const reads = named.mock.calls.length
        named.mockRestore()
        // Before: a read per [ (1000).
        expect(reads, `${id} ${unit}`).toBeLessThan(20)
        expect(result?.calls, `${id} ${unit}`).toEqual([])
        expect(result?.text, `${id} ${unit}`).toBe(raw)
      }
      // The first candidates are still read and listed, as before.
      const invalid = findJsonValues(raw).invalid ?? []
      expect(invalid, unit).toHaveLength(8)
      expect(invalid.map((failure) => failure.start), unit).toEqual(Array.from({ length: 8 }, (_, index) => 2 + unit.length * index))
    }
    expect(findJsonValues('[-[-[-').invalid?.[0]?.error.message).toBe("Expected a digit after '-' at offset 1, found '['.")
  })

  it('reads the text around failed markers consumed back to back the same as before', () => {
    const result = pipe.parse(`before ${'[TOOL:f'.repeat(500)}[TOOL:g|a=1] after`)
    expect(result.text).toBe('before\nafter')
  })
})

describe('worst-case inputs, streamed', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('starts no JSON reader at a { or [ that the next character rules out (json: {{{{)', () => {
    const write = vi.spyOn(JsonStreamReader.prototype, 'write')
    const parser = createStreamParser('json')
    const snapshot = parser.push('{'.repeat(1000) + '[}'.repeat(500))
    expect(write.mock.calls.length).toBeLessThan(10)
    expect(snapshot.reading).toBe('incremental')
    expect(snapshot.text).toBe('{'.repeat(1000) + '[}'.repeat(500))
  })

  it('keeps a [{ that fails to read in the prose run, so [{[{[{ adds the prose once per chunk, not once per [{', () => {
    for (const id of ['json', 'llama3-json']) {
      const add = vi.spyOn(ProseText.prototype, 'add')
      const snapshot = createStreamParser(id).push(`a ${'[{'.repeat(1000)}] b`)
      expect(add.mock.calls.length, id).toBeLessThan(5)
      expect(snapshot.text, id).toBe(`a ${'[{'.repeat(1000)}] b`)
      expect(snapshot.reading, id).toBe('incremental')
      add.mockRestore()
    }
  })

  it('reads every JSON value of a stream with one reader, reset between values', () => {
    const reset = vi.spyOn(JsonStreamReader.prototype, 'reset')
    const parser = createStreamParser('json')
    parser.push('[{'.repeat(100))
    const snapshot = parser.push('{"name": "f", "arguments": {"a": 1}} then {"name": "g", "arguments": {"b": ')
    expect(reset.mock.calls.length).toBe(102)
    expect(snapshot.calls).toEqual([{ name: 'f', arguments: { a: 1 }, complete: true }])
    expect(snapshot.forming).toEqual({ name: 'g', arguments: {}, complete: false })
  })

  it('writes a failed reading\'s message when asked, and reads afresh after reset', () => {
    const reader = new JsonStreamReader()
    expect(reader.write('{[', 0)).toBe(1)
    expect(reader.status).toBe('failed')
    expect(reader.error).toBe("Expected a property name, found '['.")
    reader.reset()
    expect(reader.error).toBe('')
    reader.write('{"a": [1, ')
    expect(reader.root).toEqual({ a: [1] })
    expect(reader.write('2x', 0)).toBe(1)
    expect(reader.error).toBe("Expected ',' or ']', found 'x'.")
  })

  it('keeps reading incrementally past a ( that cannot open a tuple ([(,[(, …), in chunks of any size', () => {
    for (const id of ['json', 'llama3-json']) {
      for (const size of [1, 7, 4096]) {
        const reparse = vi.spyOn(ReparseScanner.prototype, 'write')
        const raw = `a ${'(,['.repeat(2000)}] b`
        const parser = createStreamParser(id)
        let snapshot = parser.push('')
        for (let at = 0; at < raw.length; at += size) snapshot = parser.push(raw.slice(at, at + size))
        // Before: the first [( made the scanner give up, and the rest was re-parsed from the start.
        expect(reparse.mock.calls.length, `${id} ${size}`).toBe(0)
        reparse.mockRestore()
        expect(snapshot.reading, `${id} ${size}`).toBe('incremental')
        expect(snapshot.text, `${id} ${size}`).toBe(raw)
        expect(parser.end(), `${id} ${size}`).toEqual(getProtocol(id)?.parse(raw))
      }
    }
  })

  it('keeps a JSON value that holds no call in the prose run, so {}{}{} adds the prose once per chunk, not once per value', () => {
    for (const id of ['json', 'llama3-json']) {
      for (const unit of ['{}', '[1]', '[{}]', '{"a": [1]}']) {
        const raw = `a ${unit.repeat(1000)} {"name": "f", "arguments": {"x": [2]}} [{"b": 1}] b`
        for (const size of [7, raw.length]) {
          const add = vi.spyOn(ProseText.prototype, 'add')
          const parser = createStreamParser(id)
          let snapshot = parser.push('')
          for (let at = 0; at < raw.length; at += size) snapshot = parser.push(raw.slice(at, at + size))
          // Before: one add per value, 1000 in one chunk (the value's text restored as prose after its reading).
          expect(add.mock.calls.length, `${id} ${unit} ${size}`).toBeLessThanOrEqual(2 * Math.ceil(raw.length / size) + 2)
          add.mockRestore()
          expect(snapshot.reading, `${id} ${unit} ${size}`).toBe('incremental')
          expect(snapshot.text, `${id} ${unit} ${size}`).toBe(`a ${unit.repeat(1000)}\n[{"b": 1}] b`)
          expect(snapshot.calls, `${id} ${unit} ${size}`).toEqual([{ name: 'f', arguments: { x: [2] }, complete: true }])
          expect(parser.end(), `${id} ${unit} ${size}`).toEqual(getProtocol(id)?.parse(raw))
        }
      }
    }
  })

  it('starts no JSON reader at a [( whose ( cannot open a tuple ([(,[(,), in chunks of any size', () => {
    for (const size of [7, 4096]) {
      const reset = vi.spyOn(JsonStreamReader.prototype, 'reset')
      const raw = `a ${'(,['.repeat(2000)}] b`
      const parser = createStreamParser('json')
      let snapshot = parser.push('')
      for (let at = 0; at < raw.length; at += size) snapshot = parser.push(raw.slice(at, at + size))
      // Before: a reader per [(, (2000); now only where a chunk ends right after the [ or the (.
      expect(reset.mock.calls.length, String(size)).toBeLessThanOrEqual(Math.ceil(raw.length / size))
      reset.mockRestore()
      expect(snapshot.text, String(size)).toBe(raw)
      expect(parser.end(), String(size)).toEqual(getProtocol('json')?.parse(raw))
    }
  })

  it('still hands a real tuple to the one-shot parser, however the chunks split it', () => {
    const raw = 'x [{"name": "f", "arguments": {"p": [(1, 2)]}}]'
    for (const size of [1, 7, 4096]) {
      const parser = createStreamParser('json')
      let snapshot = parser.push('')
      for (let at = 0; at < raw.length; at += size) snapshot = parser.push(raw.slice(at, at + size))
      expect(snapshot.reading, String(size)).toBe('reparse')
      expect(parser.end().calls.map((call) => call.arguments), String(size)).toEqual([{ p: [[1, 2]] }])
    }
  })

  it('starts no JSON reader at a value without keys ([1], [{}]) that a chunk holds or that fits in the next one', () => {
    for (const id of ['json', 'llama3-json']) {
      for (const unit of ['[1]', '[{}]', '["a", -2.5] ', '[[true], {}]']) {
        const raw = `a ${unit.repeat(1000)} {"name": "f", "arguments": {"x": [2]}} b`
        for (const size of [7, 64, raw.length]) {
          const reset = vi.spyOn(JsonStreamReader.prototype, 'reset')
          const parser = createStreamParser(id)
          let snapshot = parser.push('')
          for (let at = 0; at < raw.length; at += size) snapshot = parser.push(raw.slice(at, at + size))
          // Before: a reader per value (1000); now one for the call (and one per chunk at most for a value longer than what is left of a chunk).
          expect(reset.mock.calls.length, `${id} ${unit} ${size}`).toBeLessThanOrEqual(unit.length < size / 2 ? 2 : Math.ceil(raw.length / size) + 2)
          reset.mockRestore()
          expect(snapshot.reading, `${id} ${unit} ${size}`).toBe('incremental')
          expect(snapshot.text, `${id} ${unit} ${size}`).toBe(`a ${unit.repeat(1000).trimEnd()}\nb`)
          expect(snapshot.calls, `${id} ${unit} ${size}`).toEqual([{ name: 'f', arguments: { x: [2] }, complete: true }])
          expect(parser.end(), `${id} ${unit} ${size}`).toEqual(getProtocol(id)?.parse(raw))
        }
      }
    }
  })

  it('looks a token start cut by the end of a chunk up once, not once per token (</think, <seed:think in one-character chunks)', () => {
    for (const id of ['json', 'llama3-json', 'xml-tag']) {
      for (const unit of ['</think', '<seed:think', '<']) {
        const raw = `a ${unit.repeat(200)} b`
        const parser = createStreamParser(id)
        const slice = vi.spyOn(String.prototype, 'slice')
        let snapshot = parser.push('')
        for (let at = 0; at < raw.length; at += 1) snapshot = parser.push(raw[at] ?? '')
        const sliced = slice.mock.calls.length
        slice.mockRestore()
        // Before: the rest cut out once per token tried (over 20 per character at a `<`).
        expect(sliced, `${id} ${unit}`).toBeLessThan(4 * raw.length)
        expect(snapshot.text, `${id} ${unit}`).toBe(raw)
        expect(parser.end(), `${id} ${unit}`).toEqual(getProtocol(id)?.parse(raw))
      }
    }
  })

  it('adds a run of < that open no token to the prose once, not per character', () => {
    for (const id of ['json', 'xml-tag']) {
      const add = vi.spyOn(ProseText.prototype, 'add')
      const snapshot = createStreamParser(id).push(`a${'<'.repeat(1000)}b`)
      expect(add.mock.calls.length, id).toBeLessThan(5)
      expect(snapshot.text, id).toBe(`a${'<'.repeat(1000)}b`)
      add.mockRestore()
    }
  })
})

describe('worst-case inputs, pythonic', () => {
  it('sets a plain argument without defineProperty, so f(a=1, f(a=1, … costs a few operations per call', () => {
    const define = vi.spyOn(Object, 'defineProperty')
    const result = pythonic.parse('f(a=1, '.repeat(1000))
    const calls = define.mock.calls.length
    define.mockRestore()
    expect(calls).toBeLessThan(10)
    expect(result.calls).toEqual([])
    expect(result.errors.map((error) => error.code)).toEqual(['truncated'])
  })

  it('reads each call of [f(a=1, f(a= once, builds no name or key it does not need, and starts no JSON read at a list the reader rejects', () => {
    // Before: 12, 4 and 6 slices, and 7, 2 and 4 prefix tests, per repetition (the call after [ was
    // read twice, as a list item and then bare; every f(a=[ started a lenient read of the list;
    // the name and the second key were cut out before the read failed at the second key's '(';
    // the 1 of 1[ was read by the lenient reader, which cut it out once more).
    for (const [unit, slices] of [['[f(a=1, f(a=', 5], ['f(a=1, ', 3], ['[f(a=1', 1.5]] as const) {
      const slice = vi.spyOn(String.prototype, 'slice')
      const startsWith = vi.spyOn(String.prototype, 'startsWith')
      const result = pythonic.parse(unit.repeat(1000))
      const sliced = slice.mock.calls.length
      const tested = startsWith.mock.calls.length
      vi.restoreAllMocks()
      expect(sliced, unit).toBeLessThan(slices * 1000)
      expect(tested, unit).toBeLessThan(100)
      expect(result.calls, unit).toEqual([])
      expect(result.errors.map((error) => error.code), unit).toEqual(['truncated'])
    }
  })

  it('reads the calls of a list left open once: [f(a=1), [f(a=1), … builds one reading per call', () => {
    // Before: each call was read in the list, then again bare once the list was found open (two
    // argument objects per call, half of them garbage).
    const keys = vi.spyOn(String.prototype, 'slice')
    const result = pythonic.parse('[f(a=1), '.repeat(1000))
    const sliced = keys.mock.calls.length
    vi.restoreAllMocks()
    expect(result.calls).toHaveLength(1000)
    expect(sliced).toBeLessThan(7 * 1000)
    // What the bare reading gives: the calls joined by separators, their repairs, their spans.
    const read = (raw: string) => pythonic.parse(raw)
    expect(read('[f(a=1), g(b=2) h(c=3)').calls.map((call) => call.name)).toEqual(['f', 'g', 'h'])
    expect(read('[f(a=1), g(b=2) h(c=3)').repairs.map((repair) => repair.code)).toEqual([])
    expect(read('[f(a=1),\n g(b=2)\n h(c=3)]').repairs.map((repair) => repair.code)).toEqual(['missing_comma'])
    expect(read('x [f(a=1); g(b=2)').calls.map((call) => call.spans?.call)).toEqual([{ start: 3, end: 9 }, { start: 11, end: 17 }])
  })

  it('still reads the calls inside and after a list whose first call fails', () => {
    const read = (raw: string) => pythonic.parse(raw).calls.map((call) => [call.name, call.arguments])
    expect(read('[f(a=1, f(a=1)] [g(b=[1, 2])]')).toEqual([['f', { a: 1 }], ['g', { b: [1, 2] }]])
    expect(read('[f(x=[g(a=1)]), h(c=2)]')).toEqual([['g', { a: 1 }], ['h', { c: 2 }]])
  })

  it('reads plain integers as the JSON reader does, and an own __proto__ key', () => {
    const result = pythonic.parse('[f(a=1, b=-20, c=0, d=007, e=1.5, __proto__=3)]')
    expect(result.calls[0]?.arguments).toEqual({ a: 1, b: -20, c: 0, d: pythonic.parse('[f(d=007)]').calls[0]?.arguments.d, e: 1.5, ['__proto__']: 3 })
    expect(Object.keys(result.calls[0]?.arguments ?? {})).toEqual(['a', 'b', 'c', 'd', 'e', '__proto__'])
    expect(Object.getPrototypeOf(result.calls[0]?.arguments)).toBe(Object.prototype)
  })
})

describe('worst-case inputs, re-parsed streams', () => {
  it('re-parses a large output streamed in small chunks for about twice its length in all (not three times)', () => {
    let parsed = 0
    let runs = 0
    const scanner = new ReparseScanner((raw) => {
      parsed += raw.length
      runs++
      return pipe.parse('')
    })
    const length = 1 << 20
    const chunk = 'x'.repeat(16)
    for (let at = 0; at < length; at += chunk.length) scanner.write(chunk)
    // ×1.5 steps all the way re-parsed about three times the length.
    expect(parsed).toBeLessThan(2.2 * length)
    expect(runs).toBeLessThan(40)
  })

  it('refreshes an output of typical size as often as before (every half again its length)', () => {
    const lengths: number[] = []
    const scanner = new ReparseScanner((raw) => {
      lengths.push(raw.length)
      return pipe.parse('')
    })
    for (let at = 0; at < 4096; at += 16) scanner.write('x'.repeat(16))
    expect(lengths.slice(0, 6)).toEqual([16, 32, 48, 80, 128, 192])
  })
})
