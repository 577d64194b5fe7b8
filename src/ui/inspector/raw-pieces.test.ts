/**
 * RawOutput's cutting stays linear in what is shown: pieces match the original all-pairs
 * reading, rows of a windowed view find their ranges by a search, and a turn of 100 000 calls
 * is cut row by row without looking at every range per row.
 */
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../test/fuzz-inputs'
import { indexRanges, piecesOf, rangesMeeting, ROW_CHARS, ROW_LINES, textRows } from './raw-pieces'
import type { Highlight } from './RawOutput'

/** The reading RawOutput had before: every range checked for every piece. */
function reference(raw: string, highlights: readonly Highlight[]) {
  const cuts = new Set<number>([0, raw.length])
  for (const h of highlights) {
    cuts.add(Math.max(0, Math.min(raw.length, h.start)))
    cuts.add(Math.max(0, Math.min(raw.length, h.end)))
  }
  const points = [...cuts].sort((a, b) => a - b)
  return points.slice(0, -1).map((start, i) => {
    const end = points[i + 1]!
    const covering = highlights.filter((h) => h.start <= start && h.end >= end && h.end > h.start)
    return { start, end, top: covering.find((h) => h.kind !== 'call') ?? covering[0] }
  })
}

/** Ranges of `n` calls laid out like a parser reports them: call ⊃ name, arguments. */
function callRanges(n: number, width = 40): Highlight[] {
  const out: Highlight[] = []
  for (let call = 0; call < n; call++) {
    const at = call * width
    out.push({ kind: 'call', call, start: at, end: at + width - 2 }, { kind: 'name', call, start: at + 2, end: at + 8 }, { kind: 'arguments', call, start: at + 10, end: at + width - 4 })
  }
  return out
}

describe('raw output pieces', () => {
  it('match the all-pairs reading on random overlapping ranges', () => {
    const next = seededRandom(11)
    for (let round = 0; round < 200; round++) {
      const raw = 'x'.repeat(1 + Math.floor(next() * 80))
      const highlights: Highlight[] = Array.from({ length: Math.floor(next() * 8) }, (_, call) => {
        const start = Math.floor(next() * raw.length)
        const kinds = ['call', 'name', 'arguments'] as const
        return { kind: kinds[Math.floor(next() * 3)]!, call, start, end: Math.min(raw.length, start + Math.floor(next() * 30)) }
      })
      expect(piecesOf(0, raw.length, highlights)).toEqual(reference(raw, highlights))
    }
  })

  it('a row of a 100 000-call output finds its few ranges without visiting the others', () => {
    const ranges = callRanges(100_000)
    const index = indexRanges(ranges)
    expect(index.sorted).toBe(ranges)
    const meeting = rangesMeeting(index, 40 * 50_000 + 5, 40 * 50_000 + 12)
    expect(meeting.map((h) => [h.kind, h.call])).toEqual([['call', 50_000], ['name', 50_000], ['arguments', 50_000]])
    expect(piecesOf(40 * 50_000 + 5, 40 * 50_000 + 12, meeting).map((p) => p.top?.kind)).toEqual(['name', 'call', 'arguments'])
    // A range that spans many rows is found from any of them.
    const long: Highlight[] = [{ kind: 'call', call: 0, start: 0, end: 1_000_000 }, ...callRanges(10).map((h) => ({ ...h, start: h.start + 10, end: h.end + 10 }))]
    expect(rangesMeeting(indexRanges(long), 900_000, 900_010)).toEqual([long[0]])
    // Out-of-order ranges are sorted once.
    expect(rangesMeeting(indexRanges([...ranges.slice(3, 6), ...ranges.slice(0, 3)]), 0, 5).map((h) => [h.kind, h.call])).toEqual([['call', 0], ['name', 0]])
  })

  it('rows hold whole lines up to a count and a length, break within long lines, never inside a surrogate pair', () => {
    const starts = (text: string, lines?: number) => [...textRows(text, ROW_CHARS, lines).starts]
    expect(starts('a\nbb\n\nc', 1)).toEqual([0, 2, 5, 6])
    expect(starts('a\nbb\n\nc', 2)).toEqual([0, 5])
    expect(starts('a\nbb\n\nc')).toEqual([0])
    expect(starts('')).toEqual([0])
    expect(starts('x'.repeat(ROW_CHARS * 2 + 5))).toEqual([0, ROW_CHARS, ROW_CHARS * 2])
    // A long line starts a row of its own, and the line after it another.
    expect(starts(`ab\n${'x'.repeat(ROW_CHARS + 1)}\ncd\nef`)).toEqual([0, 3, 3 + ROW_CHARS, 3 + ROW_CHARS + 2])
    // Short lines fill a row up to ROW_CHARS.
    const line = `${'y'.repeat(99)}\n`
    expect(starts(line.repeat(30))).toEqual([0, 2000])
    const emoji = `${'x'.repeat(ROW_CHARS - 1)}😀tail`
    expect(starts(emoji)).toEqual([0, ROW_CHARS + 1])
    const tenMb = 'word '.repeat(2_000_000)
    expect(textRows(tenMb).starts.length).toBe(Math.ceil(tenMb.length / ROW_CHARS))
    // Ten million line breaks make a quarter of a million rows, not ten million.
    const breaks = textRows('\n'.repeat(10_000_000))
    expect(breaks.starts.length).toBe(10_000_000 / ROW_LINES)
    expect(breaks.heights[0]).toBe(18 * ROW_LINES)
  })

  it('guesses each row\'s height from its lines', () => {
    const { heights } = textRows(`short\n${'z'.repeat(181)}\n`, ROW_CHARS, 1)
    expect([...heights]).toEqual([18, 54])
  })
})
