/**
 * Windowing for a long list whose rows have different heights, measured as they appear (the
 * Conversation view's cards, the calls of a huge turn). @tanstack/react-virtual keeps one
 * measurement object per row and rebuilds them from the first row whose height changed: with
 * 100 000 cards, every card measured near the top rebuilt 100 000 objects, and opening the view
 * or pressing Home made tasks of several hundred ms. Here the row offsets are two typed arrays:
 * a height change shifts the offsets after it (a loop over numbers, no allocation), and which
 * rows are in view is a binary search.
 */
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react'
import { flushSync } from 'react-dom'
import { useBoxSize, useScrollTop } from './use-fixed-rows'

/** Heights and start offsets of `count` rows; row i spans `starts[i]` to `starts[i + 1]`. */
export class RowOffsets {
  readonly sizes: Float64Array
  readonly starts: Float64Array

  /** `sizeOf`: each row's height, px, by a function or (cheaper for 800 000 rows: no call per row) all at once. */
  constructor(readonly count: number, sizeOf: ((index: number) => number) | Float64Array) {
    // Locals, not `this.` members, in the loops: they run for every row of 800 000.
    const sizes = typeof sizeOf === 'function' ? new Float64Array(count) : sizeOf.slice(0, count)
    const starts = new Float64Array(count + 1)
    let end = 0
    if (typeof sizeOf === 'function') {
      for (let i = 0; i < count; i++) {
        const size = sizeOf(i)
        sizes[i] = size
        end += size
        starts[i + 1] = end
      }
    } else {
      for (let i = 0; i < count; i++) {
        end += sizes[i]!
        starts[i + 1] = end
      }
    }
    this.sizes = sizes
    this.starts = starts
  }

  /** Height of the whole list, px. */
  get total(): number {
    return this.starts[this.count]!
  }

  /** Sets the heights of rows `[index, size]` and returns by how much each changed (the offsets after them are computed once, from the first). */
  resize(changes: readonly (readonly [index: number, size: number])[]): number[] {
    let from = this.count
    const deltas = changes.map(([index, size]) => {
      const delta = size - this.sizes[index]!
      if (delta !== 0) {
        this.sizes[index] = size
        from = Math.min(from, index)
      }
      return delta
    })
    for (let i = from; i < this.count; i++) this.starts[i + 1] = this.starts[i]! + this.sizes[i]!
    return deltas
  }

  /** The row at `offset` px (the last row for an offset past the end; 0 for an empty list). */
  indexAt(offset: number): number {
    let lo = 0
    let hi = this.count - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.starts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return Math.max(0, lo)
  }

  /** The rows that meet `[top, top + height)`, plus `overscan` rows either side: `first` inclusive, `end` exclusive. */
  visible(top: number, height: number, overscan: number): { first: number; end: number } {
    if (this.count === 0) return { first: 0, end: 0 }
    const first = Math.max(0, this.indexAt(top) - overscan)
    const end = Math.min(this.count, this.indexAt(top + height) + 1 + overscan)
    return { first, end }
  }
}

/** One row to draw: its index, its key and where it starts, px. */
export interface MeasuredRow {
  index: number
  key: string | number
  start: number
}

export interface MeasuredRows {
  rows: MeasuredRow[]
  totalSize: number
  /** Ref for a drawn row's element (which carries `data-index`): its height is followed as it changes. */
  measureElement(element: HTMLElement | null): (() => void) | undefined
  /** Scrolls the least that shows row `index` (its end when it is below the view, as the browser's `nearest`), again while the rows around it are measured. */
  scrollToIndex(index: number): void
}

/** Frames during which a row scrolled to is placed again, as the rows drawn around it get their measured heights. */
const SETTLE_FRAMES = 10

/**
 * The rows of the scroll box `parentRef` to draw, `count` rows with keys `keyOf(i)` and heights
 * `estimate(i)` until measured. Measured heights are kept by key, so a new list of the same rows
 * (another cursor) keeps them. `keyOf` and `estimate` should change only with the list.
 */
export function useMeasuredRows(
  parentRef: RefObject<HTMLElement | null>,
  {
    count,
    keyOf,
    estimate,
    overscan,
    fallbackHeight = 600,
    scope,
  }: {
    count: number
    keyOf(index: number): string | number
    /** Guessed heights, px: per row, or all at once (a typed array of at least `count`, for lists of hundreds of thousands of rows). */
    estimate: ((index: number) => number) | Float64Array
    overscan: number
    fallbackHeight?: number
    /** The measured heights are forgotten when this changes (another text whose rows are keyed by index). */
    scope?: unknown
  },
): MeasuredRows {
  const known = useRef({ scope, sizes: new Map<string | number, number>() })
  const offsets = useMemo(() => {
    if (known.current.scope !== scope) known.current = { scope, sizes: new Map() }
    const sizes = known.current.sizes
    if (sizes.size === 0) return new RowOffsets(count, estimate)
    const guess = typeof estimate === 'function' ? estimate : (i: number) => estimate[i]!
    return new RowOffsets(count, (i) => sizes.get(keyOf(i)) ?? guess(i))
  }, [count, keyOf, estimate, scope])
  const current = useRef({ offsets, keyOf })
  current.current = { offsets, keyOf }
  // Bumped when a measurement moved rows: the offsets are mutated in place.
  const [, setVersion] = useState(0)
  const mounted = count > 0
  const [top, setTop] = useScrollTop(parentRef, mounted)
  const { height } = useBoxSize(parentRef, mounted)

  // Where the settling frames of scrollToIndex last left the scroll position (null when none run).
  const placed = useRef<number | null>(null)
  const observer = useMemo(
    () =>
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver((entries) => {
            const { offsets: o, keyOf: key } = current.current
            const box = parentRef.current
            const changes: [number, number][] = []
            for (const entry of entries) {
              const element = entry.target as HTMLElement
              const index = Number(element.dataset.index)
              if (!element.isConnected || !(index >= 0 && index < o.count)) continue
              const size = entry.borderBoxSize?.[0]?.blockSize ?? element.getBoundingClientRect().height
              known.current.sizes.set(key(index), size)
              changes.push([index, size])
            }
            const scrollTop = box?.scrollTop ?? 0
            // Rows above the view that grew or shrank: keep what is in view where it was.
            const wasAbove = changes.map(([index]) => o.starts[index]! < scrollTop)
            const deltas = o.resize(changes)
            const above = deltas.reduce((sum, delta, i) => (wasAbove[i] ? sum + delta : sum), 0)
            if (box && above !== 0) {
              box.scrollTop = scrollTop + above
              if (placed.current !== null) placed.current = box.scrollTop
            }
            if (deltas.some((delta) => delta !== 0)) flushSync(() => setVersion((v) => v + 1))
          }),
    [parentRef],
  )
  useLayoutEffect(() => () => observer?.disconnect(), [observer])

  const measureElement = useCallback(
    (element: HTMLElement | null) => {
      if (!element || !observer) return undefined
      observer.observe(element)
      // A row scrolled out of the list is no longer followed (and not kept alive by the observer).
      return () => observer.unobserve(element)
    },
    [observer],
  )

  const settling = useRef(0)
  const scrollToIndex = useCallback(
    (index: number) => {
      cancelAnimationFrame(settling.current)
      placed.current = null
      let frames = SETTLE_FRAMES
      const place = () => {
        const element = parentRef.current
        const o = current.current.offsets
        if (!element || index < 0 || index >= o.count) return
        // Scrolled by someone else since the last frame (the user, a test): the view is theirs now.
        if (placed.current !== null && Math.abs(element.scrollTop - placed.current) >= 1) {
          placed.current = null
          return
        }
        const start = o.starts[index]!
        const end = o.starts[index + 1]!
        const view = element.clientHeight
        let target: number | null = null
        if (end > element.scrollTop + view) target = end - view
        else if (start < element.scrollTop) target = start
        if (target !== null && Math.abs(target - element.scrollTop) >= 1) {
          element.scrollTop = target
          setTop(element.scrollTop)
        }
        placed.current = element.scrollTop
        if (--frames > 0) settling.current = requestAnimationFrame(place)
        else placed.current = null
      }
      place()
    },
    [parentRef],
  )
  useLayoutEffect(() => () => cancelAnimationFrame(settling.current), [])

  const { first, end } = offsets.visible(top, height || fallbackHeight, overscan)
  const rows: MeasuredRow[] = []
  for (let i = first; i < end; i++) rows.push({ index: i, key: keyOf(i), start: offsets.starts[i]! })
  return { rows, totalSize: offsets.total, measureElement, scrollToIndex }
}
