import { useVirtualizer } from '@tanstack/react-virtual'
import { useRef, type ReactNode } from 'react'

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

function Windowed({ count, render, List, className, estimate }: { count: number; render: (index: number) => ReactNode; List: 'ol' | 'ul' | 'div'; className: string; estimate: number }) {
  const parentRef = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => parentRef.current,
    estimateSize: () => estimate,
    overscan: 6,
    initialRect: { width: 600, height: 480 },
  })
  return (
    <div ref={parentRef} data-windowed="true" className="max-h-[30rem] overflow-auto">
      <List className={className} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => (
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
