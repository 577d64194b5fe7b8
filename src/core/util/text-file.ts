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
import { errorMessage } from './error-message'

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

/** `text` without a leading U+FEFF (a BOM that survived decoding, as Node's `readFile(…, 'utf8')` keeps it). Pure. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** Outcome of {@link parseJsonText}. */
export type JsonTextResult = { ok: true; value: JsonValue } | { ok: false; error: string }

/**
 * Parses JSON text that may start with a BOM. Pure; never throws.
 *
 * @returns The value, or an error: `The file is empty.` for empty or all-whitespace text,
 *   else `Not valid JSON: <the engine's message>.`
 */
export function parseJsonText(text: string): JsonTextResult {
  const body = stripBom(text)
  if (body.trim() === '') return { ok: false, error: 'The file is empty.' }
  try {
    return { ok: true, value: JSON.parse(body) as JsonValue }
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${errorMessage(error)}.` }
  }
}
