import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { decodeText, errorMessage, isJsonObject, parseJsonText, stripBom } from './index'

const bytes = (...values: number[]) => new Uint8Array(values)
const utf16 = (text: string, littleEndian: boolean): Uint8Array => {
  const out = new Uint8Array(2 + text.length * 2)
  out.set(littleEndian ? [0xff, 0xfe] : [0xfe, 0xff])
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index)
    out[2 + index * 2] = littleEndian ? unit & 0xff : unit >> 8
    out[3 + index * 2] = littleEndian ? unit >> 8 : unit & 0xff
  }
  return out
}

describe('isJsonObject', () => {
  it('is true for objects only', () => {
    expect([{}, { a: 1 }, Object.create(null)].map(isJsonObject)).toEqual([true, true, true])
    expect([[], null, undefined, 'x', 1, true].map(isJsonObject)).toEqual([false, false, false, false, false, false])
  })
})

describe('errorMessage', () => {
  it('reads errors, strings and error-shaped objects', () => {
    expect(errorMessage(new TypeError('bad'))).toBe('bad')
    expect(errorMessage('plain')).toBe('plain')
    expect(errorMessage(42)).toBe('42')
    // A serialised error crossing postMessage: `String()` would say "[object Object]".
    expect(errorMessage({ name: 'Error', message: 'from the worker' })).toBe('from the worker')
  })

  it('reads an Error from another realm by its message, not as "Error: …"', () => {
    const foreign: unknown = runInNewContext('new RangeError("too far")')
    expect(foreign instanceof Error).toBe(false)
    expect(errorMessage(foreign)).toBe('too far')
  })

  it('never throws, even for values String() cannot convert', () => {
    expect(errorMessage(Object.create(null))).toBe('unknown error')
    expect(errorMessage({ toString: () => { throw new Error('no') } })).toBe('unknown error')
  })
})

describe('decodeText', () => {
  it('drops a UTF-8 BOM and decodes UTF-8', () => {
    expect(decodeText(bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d))).toBe('{}')
    expect(decodeText(new TextEncoder().encode('{"city":"Zürich"}'))).toBe('{"city":"Zürich"}')
  })

  it('decodes UTF-16LE and UTF-16BE files that start with a BOM', () => {
    const text = '{"city": "Zürich", "emoji": "🌧"}'
    expect(decodeText(utf16(text, true))).toBe(text)
    expect(decodeText(utf16(text, false))).toBe(text)
  })

  it('replaces invalid bytes instead of failing', () => {
    expect(decodeText(bytes(0x61, 0xff, 0x62))).toBe('a\uFFFDb')
    expect(decodeText(bytes())).toBe('')
  })
})

describe('parseJsonText', () => {
  it('reads JSON after a BOM', () => {
    expect(parseJsonText('\uFEFF{"a": [1]}')).toEqual({ ok: true, value: { a: [1] } })
    expect(stripBom('\uFEFFx')).toBe('x')
    expect(stripBom('x\uFEFF')).toBe('x\uFEFF')
  })

  it('says when the text is empty or not JSON', () => {
    expect(parseJsonText('\uFEFF  \n')).toEqual({ ok: false, error: 'The file is empty.', errorPhrase: { key: 'fileEmpty' } })
    expect(parseJsonText('{"a":')).toMatchObject({ ok: false, error: expect.stringMatching(/^Not valid JSON: .+\.$/), errorPhrase: { key: 'fileNotJson', params: { error: { ns: 'parse', key: 'engineJsonEnd' } } } })
  })
})
