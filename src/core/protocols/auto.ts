/**
 * `auto`: picks the wire format from the output itself and says why.
 */
import { readJson } from '../json'
import { json } from './json'
import { isOpenAiMessage, openai } from './openai'
import { blank, findReasoningSpans } from './shared/parse-builder'
import { xmlTag } from './xml-tag'
import type { ParseResult, Protocol } from './types'

/** A marker that identifies a format, in order of precedence (most specific first). */
interface Marker {
  text: string
  protocol: Protocol
}

const MARKERS: readonly Marker[] = [
  { text: '<tool_call>', protocol: xmlTag },
  { text: '<function=', protocol: xmlTag },
  { text: '<tool>', protocol: xmlTag },
  { text: '<function_call>', protocol: xmlTag },
]

/** The protocol `auto` chose for `raw`, and why. Pure; linear in `raw.length`. */
export function detectProtocol(raw: string): { protocol: Protocol; reason: string } {
  const trimmed = raw.trimStart()
  if (trimmed.startsWith('{')) {
    const read = readJson(raw)
    if (read.ok && raw.slice(read.end).trim() === '' && isOpenAiMessage(read.value)) {
      return { protocol: openai, reason: 'The output is a JSON assistant message (role/content/tool_calls).' }
    }
  }
  // Call syntax quoted inside reasoning must not decide the format.
  const view = blank(raw, findReasoningSpans(raw))
  for (const marker of MARKERS) {
    const at = view.indexOf(marker.text)
    if (at >= 0) return { protocol: marker.protocol, reason: `Found ${marker.text} at offset ${at}.` }
  }
  return { protocol: json, reason: 'No format-specific markers; looked for JSON tool-call objects in the text.' }
}

/** Parses with the detected protocol; `protocol` is the chosen id and `detection` says why. */
export function parseAuto(raw: string): ParseResult {
  const { protocol, reason } = detectProtocol(raw)
  const result = protocol.parse(raw)
  return { ...result, protocol: protocol.id, detection: reason }
}

/** `auto` protocol: detects the format of each output. Its instructions are those of `json`. */
export const auto: Protocol = {
  id: 'auto',
  label: 'Auto-detect',
  description: 'Detects the format of each output and says which it chose and why.',
  native: false,
  parse: parseAuto,
  instructions: (tools) => json.instructions(tools),
  example: xmlTag.example,
}
