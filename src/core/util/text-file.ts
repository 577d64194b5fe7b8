/**
 * Reading text files and JSON text the way editors save them: with or without a byte order
 * mark (BOM), in UTF-8 or, when a BOM says so, UTF-16. Windows tools (PowerShell's `Out-File`,
 * Notepad's "Unicode") write UTF-16LE with a BOM; many write UTF-8 with one. A BOM is not JSON,
 * so `JSON.parse` alone rejects all of these.
 *
 * Source of the rules: WHATWG Encoding Standard, "decode" (BOM sniffing: EF BB BF → UTF-8,
 * FE FF → UTF-16BE, FF FE → UTF-16LE, else the fallback encoding, here UTF-8).
 */
import type { JsonValue } from '../messages'
import { engineJsonError } from './json-engine-error'
import { jsonDepth, MAX_FILE_DEPTH } from './json-walk'
import { parseSaid } from './parse-text'
import type { Phrase, PhraseParams } from './phrase'

/** The encodings a BOM can announce. */
export type TextEncodingLabel = 'utf-8' | 'utf-16le' | 'utf-16be'

/**
 * `TextDecoder` is WHATWG Encoding, present in browsers, workers and Node alike; it is reached
 * through `globalThis` because core is compiled without the DOM library that declares it.
 */
type Decoder = new (label: TextEncodingLabel) => { decode(bytes: Uint8Array): string }

/** The encoding the file's BOM names, and the BOM's length in bytes (0 without one). Pure. */
export function sniffBom(bytes: Uint8Array): { encoding: TextEncodingLabel; bomBytes: number } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', bomBytes: 3 }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', bomBytes: 2 }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', bomBytes: 2 }
  return { encoding: 'utf-8', bomBytes: 0 }
}

/**
 * A file's bytes as text: UTF-8, or UTF-16LE/BE when a BOM says so; the BOM itself is dropped.
 * Invalid sequences become U+FFFD rather than failing, so nothing is refused for one bad byte.
 * Never throws; linear in `bytes.length`.
 */
export function decodeText(bytes: Uint8Array): string {
  const { encoding, bomBytes } = sniffBom(bytes)
  const TextDecoderClass = (globalThis as unknown as { TextDecoder: Decoder }).TextDecoder
  return new TextDecoderClass(encoding).decode(bytes.subarray(bomBytes))
}

/** The outcome of {@link readTextFile}. */
export type TextFileResult = { ok: true; text: string; encoding: TextEncodingLabel } | { ok: false; error: string; errorPhrase: Phrase }

type FatalDecoder = new (label: TextEncodingLabel, options: { fatal: boolean }) => { decode(bytes: Uint8Array): string }

/** A refusal of {@link readTextFile}: `key` of `PARSE_TEXT`, in English and as a phrase. */
function notText(key: 'textUtf16NoMark' | 'textNotEncoding' | 'textNul', params?: PhraseParams): { ok: false; error: string; errorPhrase: Phrase } {
  const said = parseSaid(key, params)
  return { ok: false, error: said.message, errorPhrase: said.phrase }
}

/**
 * Like {@link decodeText}, but for input that must be text (the CLI's files and standard input,
 * an imported file): refuses, with a reason, bytes that are not valid in the encoding the BOM
 * names (UTF-8 without one) and text holding a NUL character (binary data, or UTF-16 without a
 * BOM), instead of turning them into U+FFFD. Never throws; linear in `bytes.length`.
 */
export function readTextFile(bytes: Uint8Array): TextFileResult {
  const { encoding, bomBytes } = sniffBom(bytes)
  const TextDecoderClass = (globalThis as unknown as { TextDecoder: FatalDecoder }).TextDecoder
  let text: string
  try {
    text = new TextDecoderClass(encoding, { fatal: true }).decode(bytes.subarray(bomBytes))
  } catch {
    if (encoding === 'utf-8' && looksLikeUtf16WithoutMark(bytes)) return notText('textUtf16NoMark')
    const name = encoding === 'utf-8' ? 'UTF-8' : encoding === 'utf-16le' ? 'UTF-16LE' : 'UTF-16BE'
    return notText('textNotEncoding', { encoding: name })
  }
  const nul = text.indexOf('\u0000')
  if (nul !== -1) {
    if (encoding === 'utf-8' && looksLikeUtf16WithoutMark(bytes)) return notText('textUtf16NoMark')
    return notText('textNul', { offset: nul })
  }
  return { ok: true, text, encoding }
}

/** Mostly-ASCII UTF-16 has a zero in every other byte. */
function looksLikeUtf16WithoutMark(bytes: Uint8Array): boolean {
  const sample = Math.min(bytes.length, 4096) & ~1
  if (sample < 4) return false
  let evenZeros = 0
  let oddZeros = 0
  for (let index = 0; index < sample; index += 2) {
    if (bytes[index] === 0) evenZeros++
    if (bytes[index + 1] === 0) oddZeros++
  }
  const pairs = sample / 2
  return (oddZeros > pairs * 0.6 && evenZeros < pairs * 0.1) || (evenZeros > pairs * 0.6 && oddZeros < pairs * 0.1)
}

/** `text` without a leading U+FEFF (a BOM that survived decoding, as Node's `readFile(…, 'utf8')` keeps it). Pure. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** Outcome of {@link parseJsonText}. */
export type JsonTextResult = { ok: true; value: JsonValue } | { ok: false; error: string; errorPhrase: Phrase }

/**
 * Parses JSON text that may start with a BOM. Pure; never throws.
 *
 * @returns The value, or an error: `The file is empty.` for empty or all-whitespace text,
 *   `Not valid JSON: <the engine's message>.`, or that it nests deeper than `MAX_FILE_DEPTH` (1000) levels;
 *   with the error as a phrase of `PARSE_TEXT` (the engine's message re-worded, see json-engine-error.ts).
 */
export function parseJsonText(text: string): JsonTextResult {
  const body = stripBom(text)
  if (body.trim() === '') return notJson('fileEmpty')
  try {
    const value = JSON.parse(body) as JsonValue
    if (jsonDepth(value, MAX_FILE_DEPTH) > MAX_FILE_DEPTH) {
      return notJson('fileTooDeep', { max: MAX_FILE_DEPTH })
    }
    return { ok: true, value }
  } catch (error) {
    return notJson('fileNotJson', { error: engineJsonError(error) })
  }
}

function notJson(key: 'fileEmpty' | 'fileTooDeep' | 'fileNotJson', params?: PhraseParams): { ok: false; error: string; errorPhrase: Phrase } {
  const said = parseSaid(key, params)
  return { ok: false, error: said.message, errorPhrase: said.phrase }
}
