import { useEffect, useState, useSyncExternalStore } from 'react'
import { useFontScale } from '../teach/teach-context'

/** The root element's font size in CSS px (what 1rem is now); 16 outside a browser. */
export function rootFontPx(): number {
  if (typeof document === 'undefined') return 16
  return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16
}

/**
 * 1rem in CSS px, kept current as the app's text size (100–200 %) changes. Read after the new
 * size is applied to the root element (a layout effect does that), so a virtualised list sized
 * from it lays its rows out at the height their text now takes.
 */
export function useRootFontPx(): number {
  const scale = useFontScale()
  const [px, setPx] = useState(rootFontPx)
  useEffect(() => setPx(rootFontPx()), [scale])
  return px
}

/** The window's inner height in CSS px, following resizes and browser zoom. */
function useWindowHeight(): number {
  return useSyncExternalStore(
    (changed) => {
      window.addEventListener('resize', changed)
      return () => window.removeEventListener('resize', changed)
    },
    () => window.innerHeight,
  )
}

/**
 * True while the window is shorter than `rem` root ems: the room left for content once the
 * text size is counted (720 px at 150 % is 30 rem, as a 480 px window at 100 % is).
 */
export function useShorterThanRem(rem: number): boolean {
  const px = useRootFontPx()
  return useWindowHeight() / px < rem
}
