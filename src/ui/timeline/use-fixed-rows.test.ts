import { describe, expect, it } from 'vitest'
import { visibleRows } from './use-fixed-rows'

describe('visibleRows', () => {
  it('draws the rows in view and the overscan, however many rows there are', () => {
    for (const count of [30, 1_000, 200_000, 5_000_000]) {
      const at = visibleRows(count, 44, 44 * 10_000, 440, 12)
      expect(at.end - at.first).toBeLessThanOrEqual(10 + 2 * 12 + 1)
      if (count > 10_000) expect(at).toEqual({ first: 10_000 - 12, end: 10_000 + 10 + 12 })
      else expect(at.end).toBe(count)
    }
  })

  it('starts at the top, ends at the last row and is empty for no rows', () => {
    expect(visibleRows(5, 44, 0, 440, 12)).toEqual({ first: 0, end: 5 })
    expect(visibleRows(100, 44, 0, 440, 2)).toEqual({ first: 0, end: 12 })
    // Scrolled past the end (the list shrank): still the last rows.
    expect(visibleRows(100, 44, 44 * 500, 440, 2)).toEqual({ first: 99, end: 100 })
    expect(visibleRows(0, 44, 0, 440, 12)).toEqual({ first: 0, end: 0 })
  })
})
