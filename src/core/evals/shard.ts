/**
 * Deterministic sharding of eval cases by id, for CI matrices: shard K of N (1-based) takes the
 * cases whose id hashes to K − 1 modulo N, so the N shards are disjoint and together hold every case,
 * whatever the order of the cases in the file.
 */

/** 32-bit FNV-1a of the UTF-16 code units of `text` (http://www.isthe.com/chongo/tech/comp/fnv/). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash >>> 0
}

/** A shard: `index` from 1 to `count`. */
export interface Shard {
  index: number
  count: number
}

/** Read `K/N` (1 ≤ K ≤ N). Never throws; the error says what was expected. */
export function parseShard(text: string): { ok: true; shard: Shard } | { ok: false; error: string } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim())
  const index = match ? Number(match[1]) : NaN
  const count = match ? Number(match[2]) : NaN
  if (!match || count < 1 || index < 1 || index > count) return { ok: false, error: `--shard takes K/N with 1 ≤ K ≤ N (e.g. 2/4), got "${text}".` }
  return { ok: true, shard: { index, count } }
}

/** The items of shard `shard`, in their original order. */
export function inShard<T extends { id: string }>(items: readonly T[], shard: Shard): T[] {
  return items.filter((item) => fnv1a(item.id) % shard.count === shard.index - 1)
}
