/**
 * Resolves in a later task (a `setTimeout` of 0 ms): awaited between slices of long work, it lets
 * the page paint and answer input (or the CLI's event loop run its timers) in between.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}
