import { describe, expect, it } from 'vitest'
import { RowOffsets } from './use-measured-rows'

describe('RowOffsets', () => {
  it('places rows of different heights and finds the rows in view', () => {
    const rows = new RowOffsets(5, (i) => (i + 1) * 10)
    expect(Array.from(rows.starts)).toEqual([0, 10, 30, 60, 100, 150])
    expect(rows.total).toBe(150)
    expect(rows.indexAt(0)).toBe(0)
    expect(rows.indexAt(29)).toBe(1)
    expect(rows.indexAt(30)).toBe(2)
    expect(rows.indexAt(1_000)).toBe(4)
    expect(rows.visible(35, 30, 0)).toEqual({ first: 2, end: 4 })
    expect(rows.visible(35, 30, 1)).toEqual({ first: 1, end: 5 })
    expect(new RowOffsets(0, () => 10).visible(0, 100, 2)).toEqual({ first: 0, end: 0 })
  })

  it('moves the rows after a measured one, and only those', () => {
    const rows = new RowOffsets(4, () => 10)
    expect(rows.resize([[2, 25], [0, 10], [1, 5]])).toEqual([15, 0, -5])
    expect(Array.from(rows.starts)).toEqual([0, 10, 15, 40, 50])
  })

  it('draws a bounded number of rows however many there are', () => {
    const rows = new RowOffsets(200_000, (i) => (i % 2 ? 72 : 180))
    const { first, end } = rows.visible(rows.starts[100_000]!, 900, 6)
    expect(first).toBe(100_000 - 6)
    expect(end - first).toBeLessThan(40)
  })
})
