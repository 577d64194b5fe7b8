import { useEffect, useState, type RefObject } from 'react'

/**
 * The width of `ref`'s element in rem (CSS px divided by the root font size), kept current as
 * the window, the browser zoom or the app's text size change. A layout that switches at a width
 * in rem switches at the same point for every text size. `initial` until the element is laid out.
 */
export function useRemWidth(ref: RefObject<HTMLElement | null>, initial: number): number {
  const [rem, setRem] = useState(initial)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    const measure = () => {
      const root = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16
      setRem(element.getBoundingClientRect().width / root)
    }
    measure()
    // The text size changes the element's height (not its width): observed all the same.
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [ref])
  return rem
}
