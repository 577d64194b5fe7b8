/**
 * Cutting a raw model output into what RawOutput renders: pieces of text, each marked with the
 * innermost recognised range covering it, and, for a big output, rows of a windowed view that
 * are cut only when they scroll into sight. Everything here is linear in the output or in the
 * visible part of it, so a 10 MB output or a turn of 100 000 calls never blocks the page.
 */
import type { Highlight } from './RawOutput'

/** A run of text `[start, end)` and the range it is marked with, if any. */
export interface Piece {
  start: number
  end: number
  top: Highlight | undefined
}

/** Outputs longer than this (UTF-16 code units) or with more ranges than {@link WINDOWED_RANGES} render windowed. */
export const WINDOWED_CHARS = 100_000
/** See {@link WINDOWED_CHARS}. */
export const WINDOWED_RANGES = 600
/** Longest row of the windowed view, code units: a 10 MB output on one line still scrolls in rows. */
export const ROW_CHARS = 2_000

/**
 * The pieces of `[from, to)` of `raw` given the ranges that may cover it: cut at every range
 * edge, and the innermost range wins (a name or the arguments over the call around them; among
 * ranges of the same level, the first given). O(r log r + pieces × r) for r ranges, so callers
 * pass only the ranges that meet `[from, to)`.
 */
export function piecesOf(from: number, to: number, ranges: readonly Highlight[]): Piece[] {
  const cuts = new Set<number>([from, to])
  for (const h of ranges) {
    if (h.start > from && h.start < to) cuts.add(h.start)
    if (h.end > from && h.end < to) cuts.add(h.end)
  }
  const points = [...cuts].sort((a, b) => a - b)
  const pieces: Piece[] = []
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i]!
    const end = points[i + 1]!
    let inner: Highlight | undefined
    let outer: Highlight | undefined
    for (const h of ranges) {
      if (h.start > start || h.end < end || h.end <= h.start) continue
      if (h.kind !== 'call') {
        inner ??= h
        break
      }
      outer ??= h
    }
    pieces.push({ start, end, top: inner ?? outer })
  }
  return pieces
}

/** Ranges sorted by start with the running maximum of their ends: answers "which ranges meet [a, b)" by a search. */
export interface RangeIndex {
  sorted: readonly Highlight[]
  /** `maxEnd[i]` is the largest end among `sorted[0..i]`. */
  maxEnd: Int32Array | Float64Array
}

/** Builds a {@link RangeIndex}; O(r) when the ranges come in order (parsers give them so), O(r log r) otherwise. */
export function indexRanges(ranges: readonly Highlight[]): RangeIndex {
  let ordered = true
  for (let i = 1; i < ranges.length && ordered; i++) if (ranges[i]!.start < ranges[i - 1]!.start) ordered = false
  // Ties keep the given order (Array.prototype.sort is stable), which decides between equal ranges.
  const sorted = ordered ? ranges : [...ranges].sort((a, b) => a.start - b.start)
  const maxEnd = new Float64Array(sorted.length)
  let max = Number.NEGATIVE_INFINITY
  sorted.forEach((h, i) => {
    max = Math.max(max, h.end)
    maxEnd[i] = max
  })
  return { sorted, maxEnd }
}

/**
 * The ranges that meet `[from, to)`, in the index's order. O(log r + the ranges passed over),
 * which is the ranges meeting the row plus those ending before it but after a longer earlier one.
 */
export function rangesMeeting(index: RangeIndex, from: number, to: number): Highlight[] {
  const { sorted, maxEnd } = index
  // Last range starting before `to`.
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]!.start < to) lo = mid + 1
    else hi = mid
  }
  const found: Highlight[] = []
  for (let i = lo - 1; i >= 0 && maxEnd[i]! > from; i--) {
    const h = sorted[i]!
    if (h.end > from) found.push(h)
  }
  return found.reverse()
}

/**
 * Row starts of the windowed view of `raw`: after each line break, and every {@link ROW_CHARS}
 * code units within a longer line (never inside a surrogate pair). O(n); a typed array, so a
 * million rows cost 4 MB, not a million objects.
 */
export function rowStarts(raw: string, rowChars = ROW_CHARS): Int32Array {
  // A typed array grown by doubling, not a number[] copied at the end: for 15 MB of 800 000 lines
  // (a turn of 100 000 calls, pretty-printed) this is ~3× faster and allocates a quarter as much.
  let starts = new Int32Array(1024)
  let count = 0
  const push = (at: number): void => {
    if (count === starts.length) {
      const grown = new Int32Array(count * 2)
      grown.set(starts)
      starts = grown
    }
    starts[count++] = at
  }
  push(0)
  let lineStart = 0
  for (;;) {
    const newline = raw.indexOf('\n', lineStart)
    const lineEnd = newline < 0 ? raw.length : newline + 1
    for (let at = lineStart + rowChars; at < lineEnd; at += rowChars) {
      const code = raw.charCodeAt(at)
      // Keep a surrogate pair on one row.
      push(code >= 0xdc00 && code <= 0xdfff ? at + 1 : at)
    }
    if (newline < 0 || lineEnd >= raw.length) break
    push(lineEnd)
    lineStart = lineEnd
  }
  return starts.slice(0, count)
}
