import { describe, expect, it } from 'vitest'
import { readTextFile } from './text-file'

const utf16 = (text: string, bigEndian: boolean, bom = true): Uint8Array => {
  const bytes: number[] = bom ? (bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]) : []
  for (const unit of text.split('').map((c) => c.charCodeAt(0))) bytes.push(...(bigEndian ? [unit >> 8, unit & 0xff] : [unit & 0xff, unit >> 8]))
  return new Uint8Array(bytes)
}

describe('readTextFile (input that must be text)', () => {
  const json = '{"messages":[{"role":"user","content":"héllo 🌍"}]}'

  it('reads UTF-8 with and without a BOM, and UTF-16 LE / BE with one, to the same text', () => {
    const utf8 = new TextEncoder().encode(json)
    expect(readTextFile(utf8)).toEqual({ ok: true, text: json, encoding: 'utf-8' })
    expect(readTextFile(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]))).toEqual({ ok: true, text: json, encoding: 'utf-8' })
    expect(readTextFile(utf16(json, false))).toEqual({ ok: true, text: json, encoding: 'utf-16le' })
    expect(readTextFile(utf16(json, true))).toEqual({ ok: true, text: json, encoding: 'utf-16be' })
  })

  it('refuses binary data and invalid UTF-8 with a reason', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52])
    expect(readTextFile(png)).toEqual({
      ok: false,
      error: 'it is not UTF-8 text (a binary file, or text in another encoding?). Toolstep reads UTF-8 text, and UTF-16 with a byte-order mark.',
      errorPhrase: { key: 'textNotEncoding', params: { encoding: 'UTF-8' } },
    })
    expect(readTextFile(new Uint8Array([0x61, 0x62, 0, 0x01, 0x63]))).toEqual({
      ok: false,
      error: 'it is not text: it holds a NUL character at offset 2 (a binary file?). Toolstep reads UTF-8 text, and UTF-16 with a byte-order mark.',
      errorPhrase: { key: 'textNul', params: { offset: 2 } },
    })
  })

  it('says so when UTF-16 has no byte-order mark', () => {
    expect(readTextFile(utf16(json, false, false))).toEqual({
      ok: false,
      error: 'it looks like UTF-16 text without a byte-order mark. Toolstep reads UTF-8 text, and UTF-16 with a byte-order mark: save it as UTF-8, or as UTF-16 with a BOM.',
      errorPhrase: { key: 'textUtf16NoMark' },
    })
  })
})
