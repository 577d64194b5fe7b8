/**
 * Counting how often code reads a list's items, for tests that a derivation over a growing
 * session log reads only what was appended (linear work) without timing anything.
 */

/** `items` behind a proxy that adds one to `reads.count` on every index read. */
export function countedReads<T>(items: T[], reads: { count: number }): T[] {
  return new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads.count++
      return Reflect.get(target, key, receiver) as unknown
    },
  })
}
