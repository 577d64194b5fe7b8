/**
 * Small scanning helpers shared by the text protocols.
 */
import type { Span } from '../types'

/**
 * Finds the next occurrence of a fixed string at or after a position that only moves forward,
 * remembering the last answer so repeated searches (including fruitless ones) stay linear overall.
 */
export class ForwardFinder {
  private readonly cache = new Map<string, number>()

  constructor(private readonly text: string) {}

  /** Offset of the next `needle` at or after `from`, or -1. `from` must not decrease between calls for one needle. */
  next(needle: string, from: number): number {
    const cached = this.cache.get(needle)
    if (cached !== undefined && (cached === -1 || cached >= from)) return cached
    const found = this.text.indexOf(needle, from)
    this.cache.set(needle, found)
    return found
  }
}

/** `[A-Za-z0-9_+-]`: a character of a fence's info string (`json`, `tool_code`). */
function isInfoChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2b || code === 0x2d
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09
}

/**
 * The Markdown code fence around `[start, end)`, if there is one: a line with ```` ``` ```` and an
 * optional info string (`json`) before it, and ```` ``` ```` after it, with only whitespace between.
 * An opening fence alone (the closing one cut off) also counts.
 *
 * @param floor do not look back before this offset
 */
export function fenceAround(text: string, start: number, end: number, floor = 0): Span | undefined {
  let before = start
  while (before > floor && isSpace(text.charCodeAt(before - 1))) before--
  let info = before
  while (info > floor && isInfoChar(text.charCodeAt(info - 1))) info--
  if (info - 3 < floor || !text.startsWith('```', info - 3)) return undefined
  const open = info - 3
  let after = end
  while (after < text.length && isSpace(text.charCodeAt(after))) after++
  if (text.startsWith('```', after)) return { start: open, end: after + 3 }
  if (after >= text.length) return { start: open, end: text.length }
  return undefined
}

/** Reads an identifier-like tool name (`[A-Za-z0-9_.:-]`, also `\_` escapes) at `pos`; returns its end. */
export function readNameEnd(text: string, pos: number): number {
  let i = pos
  while (i < text.length) {
    const char = text[i] ?? ''
    if (/[A-Za-z0-9_.:-]/.test(char)) i++
    else break
  }
  return i
}
