/**
 * Resolves in a later task: awaited between slices of long work, it lets the page paint and
 * answer input (or the CLI's event loop run its timers) in between. In a browser with
 * `scheduler.yield()` (Chromium) that is used: it ends the task like a timer does, but the work
 * goes on ahead of other queued tasks and without the 4 ms a nested `setTimeout(0)` is clamped
 * to, which a run that yields after every phase would pay each time. Elsewhere (Node, other
 * browsers) a `setTimeout` of 0 ms.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  return new Promise((resolve) => setTimeout(resolve, 0))
}
