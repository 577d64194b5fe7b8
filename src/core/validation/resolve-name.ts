/**
 * Tool-name resolution in the order the hand-written loops use: the exact name, then a
 * declared alias, then the name with case and separators ignored (`getWeather`,
 * `get-weather` → `get_weather`), then optionally a fuzzy match (edit distance ≤ 2).
 * Only own names are ever matched, so `constructor` or `__proto__` resolve to nothing.
 */
import type { ToolSpec } from '../tools/types'

/** How a name was resolved, shown on the timeline. */
export type Resolution = 'exact' | 'alias' | 'normalized' | 'fuzzy'

export interface ResolvedName {
  spec: ToolSpec
  resolution: Resolution
}

/** Largest edit distance a fuzzy match may have. */
export const MAX_FUZZY_DISTANCE = 2

/** `getWeather`, `get-weather`, `Get Weather` → `getweather`. */
function normalize(name: string): string {
  return name.toLowerCase().replace(/[\s_\-.]+/g, '')
}

/**
 * Finds the tool the model meant. Pure.
 * @param fuzzy - also accept a unique tool within {@link MAX_FUZZY_DISTANCE} edits (ties resolve to nothing).
 * @returns the tool and how it was found, or `undefined`.
 */
export function resolveToolName(name: string, tools: readonly ToolSpec[], options: { fuzzy?: boolean } = {}): ResolvedName | undefined {
  const exact = tools.find((t) => t.name === name)
  if (exact) return { spec: exact, resolution: 'exact' }
  const aliased = tools.find((t) => t.aliases?.includes(name))
  if (aliased) return { spec: aliased, resolution: 'alias' }
  const wanted = normalize(name)
  if (wanted === '') return undefined
  const normalized = tools.filter((t) => normalize(t.name) === wanted || (t.aliases ?? []).some((a) => normalize(a) === wanted))
  if (normalized.length === 1) return { spec: normalized[0]!, resolution: 'normalized' }
  if (!options.fuzzy || normalized.length > 1) return undefined
  let best: ToolSpec | undefined
  let bestDistance = MAX_FUZZY_DISTANCE + 1
  let tie = false
  for (const tool of tools) {
    const distance = editDistance(wanted, normalize(tool.name), MAX_FUZZY_DISTANCE)
    if (distance < bestDistance) {
      best = tool
      bestDistance = distance
      tie = false
    } else if (distance === bestDistance) tie = true
  }
  return best && !tie && bestDistance <= MAX_FUZZY_DISTANCE ? { spec: best, resolution: 'fuzzy' } : undefined
}

/** Levenshtein distance, giving up early (returns `limit + 1`) once it must exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      current.push(value)
      rowMin = Math.min(rowMin, value)
    }
    if (rowMin > limit) return limit + 1
    previous = current
  }
  return previous[b.length]!
}
