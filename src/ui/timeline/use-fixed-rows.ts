/**
 * Windowing for a list whose rows all have one height (the timeline). @tanstack/react-virtual
 * rebuilds its measurement of every row (an object each) whenever the row count changes; a live
 * run of 200 000 events changes it on every update, and that pass, its garbage and the layout it
 * then reads made tasks of hundreds of ms. With one height, which rows are in view is arithmetic:
 * O(rows in view) per render, whatever the count.
 */
import { useCallback, useLayoutEffect, useState, type RefObject } from 'react'

/** The rows to draw and how to bring one into view. */
export interface FixedRows {
  /** First row to draw (inclusive) and the one after the last (exclusive). */
  first: number
  end: number
  /** Height of the whole list, px. */
  totalSize: number
  /** Scrolls the least that shows row `index` whole (nothing when it is already in view). */
  scrollToIndex(index: number): void
}

/** The part of a scroll box of `count` rows of `rowHeight` px in view, plus `overscan` rows either side. */
export function visibleRows(count: number, rowHeight: number, scrollTop: number, viewHeight: number, overscan: number): { first: number; end: number } {
  if (count <= 0 || rowHeight <= 0) return { first: 0, end: 0 }
  const first = Math.max(0, Math.min(count - 1, Math.floor(scrollTop / rowHeight) - overscan))
  const end = Math.min(count, Math.ceil((scrollTop + viewHeight) / rowHeight) + overscan)
  return { first, end: Math.max(first, end) }
}

/**
 * The scroll box `parentRef`'s `scrollTop` (px) as state, read on every scroll, and its setter for
 * a scroll made in code. `mounted`: the box exists (only while there are rows).
 */
export function useScrollTop(parentRef: RefObject<HTMLElement | null>, mounted: boolean): [number, (top: number) => void] {
  const [top, setTop] = useState(0)
  useLayoutEffect(() => {
    const element = parentRef.current
    if (!element) return
    const read = () => setTop(element.scrollTop)
    read()
    element.addEventListener('scroll', read, { passive: true })
    return () => element.removeEventListener('scroll', read)
  }, [parentRef, mounted])
  return [top, setTop]
}

/**
 * Which of `count` rows of `rowHeight` px the scroll box `parentRef` shows, `viewHeight` px tall
 * (its {@link useBoxSize} height). Before the box has a size (first render, no layout) it
 * assumes `fallbackHeight` px, so the first rows are drawn.
 */
export function useFixedRows(parentRef: RefObject<HTMLElement | null>, count: number, rowHeight: number, viewHeight: number, overscan: number, fallbackHeight = 600): FixedRows {
  const [top, setTop] = useScrollTop(parentRef, count > 0)
  const scrollToIndex = useCallback(
    (index: number) => {
      const element = parentRef.current
      if (!element) return
      const rowTop = index * rowHeight
      if (rowTop < element.scrollTop) element.scrollTop = rowTop
      else if (rowTop + rowHeight > element.scrollTop + element.clientHeight) element.scrollTop = rowTop + rowHeight - element.clientHeight
      else return
      // Drawn in this render, not a frame later when the scroll event comes.
      setTop(element.scrollTop)
    },
    [parentRef, rowHeight],
  )
  const { first, end } = visibleRows(count, rowHeight, top, viewHeight || fallbackHeight, overscan)
  return { first, end, totalSize: count * rowHeight, scrollToIndex }
}

/** The content box of `parentRef` in px, followed as it resizes; zeros before it has a size (or while `mounted` is false). */
export function useBoxSize(parentRef: RefObject<HTMLElement | null>, mounted: boolean): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 })
  useLayoutEffect(() => {
    const element = parentRef.current
    if (!element) return
    const read = () => setSize((s) => (s.width === element.clientWidth && s.height === element.clientHeight ? s : { width: element.clientWidth, height: element.clientHeight }))
    // Where there is a ResizeObserver, its first report (after the browser's own layout) gives
    // the size: reading it here forced a layout of the page in the task that drew the box
    // (~60 ms beside a 10 MB answer). Until then the callers assume their fallback height.
    if (typeof ResizeObserver === 'undefined') {
      read()
      return
    }
    const observer = new ResizeObserver(read)
    observer.observe(element)
    return () => observer.disconnect()
    // The box exists only while there are rows.
  }, [parentRef, mounted])
  return size
}
