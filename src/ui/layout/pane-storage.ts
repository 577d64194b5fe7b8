/**
 * Where pane sizes are remembered (localStorage), for react-resizable-panels' `useDefaultLayout`.
 * It never throws (private mode, a full quota: sizes are a convenience), and it hands the library
 * only a saved layout it can read: the library `JSON.parse`s what `getItem` returns without a
 * guard, so one unreadable value (`x`, `null`, a hand-edited entry) blanked the whole page on
 * every load, editors and code out of reach.
 */

/** The saved value when it is a layout (a JSON object of finite numbers), else `null`. Pure. */
export function readableLayout(value: string | null): string | null {
  if (value === null) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    return null
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null
  return Object.values(parsed).every((size) => typeof size === 'number' && Number.isFinite(size)) ? value : null
}

/** The `storage` option of `useDefaultLayout`: see the module's comment. */
export const paneStorage = {
  getItem(key: string): string | null {
    try {
      const value = localStorage.getItem(key)
      const layout = readableLayout(value)
      // An unreadable layout is dropped, so the next change of a pane's size saves a good one.
      if (value !== null && layout === null) localStorage.removeItem(key)
      return layout
    } catch {
      return null
    }
  },
  setItem(key: string, value: string): void {
    try {
      localStorage.setItem(key, value)
    } catch {
      // Not remembering a pane size is harmless.
    }
  },
}
