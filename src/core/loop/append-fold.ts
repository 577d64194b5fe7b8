/**
 * Folds over a log that grows by appending, paid once per new event. A live run hands the store
 * a new array after every phase, holding the same event objects as the one before plus what the
 * phase appended; a derivation that walked the whole log on every update made a run of n events
 * cost O(n²) to watch. `createAppendFold` remembers how far it got and walks only the new events
 * when the next log extends the last one, and starts again otherwise (Reset, an import, a fork).
 */

/**
 * Whether `next` is `previous` with events appended. Events are never changed in place and a
 * log only grows by appending or is replaced by a new one (which starts with a new
 * `session.started`, or is cut before the last event it shares), so comparing the first and the
 * last of `previous`'s events by identity tells them apart in O(1).
 */
export function extendsLog<T>(previous: readonly T[], next: readonly T[]): boolean {
  if (previous.length === 0) return true
  if (next.length < previous.length) return false
  return next[0] === previous[0] && next[previous.length - 1] === previous[previous.length - 1]
}

/** How an {@link createAppendFold} folds: a mutable accumulator, fed one item at a time, and what callers see of it. */
export interface AppendFoldSteps<T, A, V> {
  /** A fresh accumulator (an empty log). */
  start(): A
  /** Takes in `items[index]` (every item before it has been added). May mutate `acc`. */
  add(acc: A, item: T, index: number, items: readonly T[]): void
  /** What the fold of the first `count` items is, as callers see it; a value they may keep (not `acc` itself when `acc` changes later). */
  view(acc: A, count: number): V
}

/**
 * A function from a log to its fold that does O(new items) work per call when each log extends
 * the one before (see {@link extendsLog}), O(n) when it does not; the same log twice in a row
 * returns the same value. Pure from the caller's side: the answer is the fold of `items`.
 */
export function createAppendFold<T, A, V>(steps: AppendFoldSteps<T, A, V>): (items: readonly T[]) => V {
  let seen: readonly T[] = []
  let acc = steps.start()
  let answer: { value: V } | null = null
  return (items) => {
    if (items === seen && answer) return answer.value
    const appended = extendsLog(seen, items)
    if (!appended) acc = steps.start()
    const from = appended ? seen.length : 0
    for (let index = from; index < items.length; index++) steps.add(acc, items[index]!, index, items)
    seen = items
    answer = { value: steps.view(acc, items.length) }
    return answer.value
  }
}
