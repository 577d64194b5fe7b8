import { useCallback, useRef, type ReactNode } from 'react'
import { useMeasuredRows } from '../timeline/use-measured-rows'

/** Lists longer than this render windowed: a turn of 100 000 calls would otherwise put 100 000 cards in the page. */
export const WINDOWED_ITEMS = 200

/**
 * `count` items, each drawn by `render(i)`: all of them up to {@link WINDOWED_ITEMS}, else in a
 * scroll box that draws only the items in view (heights measured as they appear). `as` is the
 * list element (`ol`, `ul`, `div`) and `className` its classes, in both modes.
 */
export function WindowedList({ count, render, as: List = 'div', className = '', estimate = 64 }: {
  count: number
  render: (index: number) => ReactNode
  as?: 'ol' | 'ul' | 'div'
  className?: string
  /** Estimated item height, px, before it is measured. */
  estimate?: number
}) {
  if (count <= WINDOWED_ITEMS) return <List className={className}>{Array.from({ length: count }, (_, index) => render(index))}</List>
  return <Windowed count={count} render={render} List={List} className={className} estimate={estimate} />
}

/** An item is known by its index in the list. */
const itemKey = (index: number) => index

function Windowed({ count, render, List, className, estimate }: { count: number; render: (index: number) => ReactNode; List: 'ol' | 'ul' | 'div'; className: string; estimate: number }) {
  const parentRef = useRef<HTMLDivElement>(null)
  // Offsets in typed arrays (see use-measured-rows.ts): @tanstack/react-virtual kept an object per
  // item and rebuilt them from the first one measured, for the 100 000 calls of a turn.
  const virtualizer = useMeasuredRows(parentRef, {
    count,
    estimate: useCallback(() => estimate, [estimate]),
    keyOf: itemKey,
    overscan: 6,
    fallbackHeight: 480,
  })
  return (
    <div ref={parentRef} data-windowed="true" className="max-h-[30rem] overflow-auto">
      <List className={className} style={{ height: virtualizer.totalSize, position: 'relative' }}>
        {virtualizer.rows.map((item) => (
          <div
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)`, paddingBottom: 6 }}
          >
            {render(item.index)}
          </div>
        ))}
      </List>
    </div>
  )
}
