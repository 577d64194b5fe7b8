/** Timers the playground uses (the code-check debounce); injected so tests control time. */
export interface Clock {
  /** Calls `callback` once after `ms` milliseconds; returns a handle for {@link Clock.clearTimeout}. */
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** The host's own timers. */
export const systemClock: Clock = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
}
