import { useSyncExternalStore } from 'react'

/** True while the window matches `query` (e.g. `(max-height: 560px)`); follows resizes and zoom. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', changed)
      return () => list.removeEventListener('change', changed)
    },
    () => window.matchMedia(query).matches,
  )
}
