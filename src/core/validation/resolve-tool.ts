/**
 * Looking up a tool by the name the model wrote: the one rule for every layer (engine, log
 * checks, sandbox). Model output is untrusted input, so only the tools' own names and aliases are
 * compared, as strings; a name such as `constructor`, `__proto__` or `toString` never resolves to
 * something inherited from `Object.prototype` (the AI SDK guards the same way with `getOwn`).
 *
 * The matching goes as far as the caller asks, in the order the hand-written loops use:
 * the exact name, then a declared alias, then the name with case and separators ignored
 * (`getWeather`, `get-weather` → `get_weather`), then optionally a fuzzy match (edit distance ≤ 2).
 */

import type { Phrase } from '../util/phrase'
import { validationMessage, validationPhrase } from './validation-text'

/** What a lookup needs of a tool: its name and the other names it answers to. */
export interface NamedTool {
  readonly name: string
  readonly aliases?: readonly string[]
}

/** How a name was resolved, shown on the timeline. */
export type Resolution = 'exact' | 'alias' | 'normalized' | 'fuzzy'

/**
 * How far a lookup may go:
 * - `exact`: the name only, case-sensitive (checking a logged call as the logging system saw it);
 * - `declared`: the name or a declared alias (the sandbox running a tool);
 * - `loose`: also case and separators ignored (the engine, the default).
 */
export type NameMatching = 'exact' | 'declared' | 'loose'

/** The tool a name resolved to, and how. */
export interface ResolvedName<T extends NamedTool = NamedTool> {
  spec: T
  resolution: Resolution
}

/** Largest edit distance a fuzzy match may have. */
export const MAX_FUZZY_DISTANCE = 2

/** `getWeather`, `get-weather`, `Get Weather` → `getweather`. */
function normalize(name: string): string {
  return name.toLowerCase().replace(/[\s_\-.]+/g, '')
}

/**
 * Finds the tool the model meant. Pure; linear in the number of tools (times the name length
 * for `fuzzy`).
 *
 * @param name - Tool name exactly as the model wrote it (not trimmed).
 * @param tools - The tools, in the order they are offered; the first exact or alias match wins.
 * @param options.match - How far to go ({@link NameMatching}); default `loose`.
 * @param options.fuzzy - With `loose`, also accept a unique tool within {@link MAX_FUZZY_DISTANCE}
 *   edits (ties resolve to nothing).
 * @returns The tool and how it was found, or `undefined` when no tool answers to the name.
 */
export function resolveToolName<T extends NamedTool>(
  name: string,
  tools: readonly T[],
  options: { match?: NameMatching; fuzzy?: boolean } = {},
): ResolvedName<T> | undefined {
  const match = options.match ?? 'loose'
  const exact = tools.find((tool) => tool.name === name)
  if (exact) return { spec: exact, resolution: 'exact' }
  if (match === 'exact') return undefined
  const aliased = tools.find((tool) => tool.aliases?.includes(name) === true)
  if (aliased) return { spec: aliased, resolution: 'alias' }
  if (match === 'declared') return undefined
  const wanted = normalize(name)
  if (wanted === '') return undefined
  const normalized = tools.filter((tool) => normalize(tool.name) === wanted || (tool.aliases ?? []).some((alias) => normalize(alias) === wanted))
  if (normalized.length === 1) return { spec: normalized[0]!, resolution: 'normalized' }
  if (!options.fuzzy || normalized.length > 1) return undefined
  let best: T | undefined
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

/**
 * The error written back to the model when it calls a tool that does not exist. Pure.
 *
 * @returns `Unknown tool "x". Available tools: a, b, c.` (tools in the order given; the name
 *   quoted as a JSON string), or `Unknown tool "x". No tools are available.` when there are none.
 */
export function unknownToolMessage(name: string, tools: readonly NamedTool[]): string {
  return validationMessage(unknownToolPhrase(name, tools))
}

/** {@link unknownToolMessage} as a phrase of `VALIDATION_TEXT`. Pure. */
export function unknownToolPhrase(name: string, tools: readonly NamedTool[]): Phrase {
  const quoted = JSON.stringify(name)
  return tools.length === 0 ? validationPhrase('unknownToolNone', { name: quoted }) : validationPhrase('unknownTool', { name: quoted, tools: tools.map((tool) => tool.name).join(', ') })
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
