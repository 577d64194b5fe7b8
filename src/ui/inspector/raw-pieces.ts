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
 * Lines one row of the windowed view may hold: a text of many short lines (a million line
 * breaks from a model or a tool) makes a bounded number of rows, not one per line.
 */
export const ROW_LINES = 40
/** Height of one drawn line of a windowed view, px, and the characters guessed to fit on one. */
const LINE_PX = 18
const LINE_CHARS = 90

/** No rows yet (a text whose layout is being made). */
export const NO_ROWS = new Int32Array(0)
export const NO_HEIGHTS = new Float64Array(0)

/** Rows of a windowed view: where each starts (UTF-16 offsets) and its guessed height, px. */
export interface TextRows {
  starts: Int32Array
  heights: Float64Array
}

/**
 * The rows of the windowed view of `text`: whole lines, at most `rowLines` of them and
 * `rowChars` code units together, or `rowChars` of a line longer than that (never inside a
 * surrogate pair). Heights are guessed at 18 px per ~90 characters of each line, until drawn
 * rows are measured. O(n); typed arrays, so a million rows cost 12 MB, not a million objects.
 */
export function textRows(text: string, rowChars = ROW_CHARS, rowLines = ROW_LINES): TextRows {
  // Typed arrays grown by doubling, not number[]s copied at the end (15 MB of 800 000 lines: ~3× faster).
  let starts = new Int32Array(1024)
  let heights = new Float64Array(1024)
  let count = 0
  let lines = 0
  const guess = (chars: number) => LINE_PX * Math.max(1, Math.ceil(chars / LINE_CHARS))
  const startRow = (at: number): void => {
    if (count === starts.length) {
      const grownStarts = new Int32Array(count * 2)
      grownStarts.set(starts)
      starts = grownStarts
      const grownHeights = new Float64Array(count * 2)
      grownHeights.set(heights)
      heights = grownHeights
    }
    starts[count] = at
    heights[count] = 0
    count++
    lines = 0
  }
  startRow(0)
  let lineStart = 0
  for (;;) {
    const newline = text.indexOf('\n', lineStart)
    const lineEnd = newline < 0 ? text.length : newline + 1
    if (lineEnd - lineStart > rowChars) {
      // A long line: rows of its own, rowChars each.
      if (lineStart > starts[count - 1]!) startRow(lineStart)
      let from = lineStart
      for (let at = lineStart + rowChars; at < lineEnd; at += rowChars) {
        const code = text.charCodeAt(at)
        // Keep a surrogate pair on one row.
        const cut = code >= 0xdc00 && code <= 0xdfff ? at + 1 : at
        heights[count - 1] = guess(cut - from)
        startRow(cut)
        from = cut
      }
      heights[count - 1] = guess(lineEnd - from)
      lines = rowLines
    } else {
      if (lineStart > starts[count - 1]! && (lines >= rowLines || lineEnd - starts[count - 1]! > rowChars)) startRow(lineStart)
      heights[count - 1]! += guess(lineEnd - lineStart)
      lines++
    }
    if (newline < 0 || lineEnd >= text.length) break
    lineStart = lineEnd
  }
  return { starts: starts.slice(0, count), heights: heights.slice(0, count) }
}
