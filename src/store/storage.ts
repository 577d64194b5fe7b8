/**
 * The key/value storage the playground saves into: `localStorage` in the browser, a Map in
 * tests. Every access is guarded, because `localStorage` throws when it is full
 * (`QuotaExceededError`) or disabled (`SecurityError`), and a failed save must never lose an
 * edit or break the app.
 */

/** The part of the Web Storage API the playground uses (`localStorage` fits). */
export interface KeyValueStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** A storage that keeps everything in memory (tests, and browsers where localStorage is unavailable). */
export function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { readonly entries: Map<string, string> } {
  const entries = new Map(Object.entries(initial))
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  }
}

/** True for the error a full storage throws (name `QuotaExceededError`, or Firefox's `NS_ERROR_DOM_QUOTA_REACHED`). */
export function isQuotaError(error: unknown): boolean {
  const name = error instanceof Error || (typeof error === 'object' && error !== null) ? String((error as { name?: unknown }).name) : ''
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED'
}

/** Reads `key`; `null` when it is absent or the storage cannot be read. Never throws. */
export function readItem(storage: KeyValueStorage, key: string): string | null {
  try {
    return storage.getItem(key)
  } catch {
    return null
  }
}

/** Writes `key`; returns the error instead of throwing it. */
export function writeItem(storage: KeyValueStorage, key: string, value: string | null): { ok: true } | { ok: false; error: unknown } {
  try {
    if (value === null) storage.removeItem(key)
    else storage.setItem(key, value)
    return { ok: true }
  } catch (error) {
    return { ok: false, error }
  }
}
