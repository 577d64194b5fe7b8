/**
 * What protocol detectors share: one scan per output for every registered marker, so `auto` can
 * ask each protocol of the registry where its earliest call starts without each one searching the
 * whole output (twenty native searches over a two-byte 200 KB string cost more than `JSON.parse`
 * of it; one combined search costs a fifth).
 */
import type { FormatDetection } from '../types'
import { parseMessage, parsePhrase, type ParseTextKey } from '../../util/parse-text'
import type { Phrase, PhraseParams } from '../../util/phrase'
import { reasoningView, skipSpace } from './parse-builder'

/** Why a detector sees a call: the English the CLI prints (`reason`) and its phrase of `PARSE_TEXT`, which the UI translates. */
export interface DetectionReason {
  reason: string
  phrase: Phrase
}

/** The reason `key` of `PARSE_TEXT` (e.g. `detectFoundMarker`, `Found [TOOL_CALLS] at offset 12.`). */
export function detectionReason(key: ParseTextKey, params?: PhraseParams): DetectionReason {
  const phrase = parsePhrase(key, params)
  return { reason: parseMessage(phrase), phrase }
}

const registered = new Set<string>()
let combined: RegExp | undefined
let longestMarker = 0

/**
 * Registers literal strings that start a format's calls (special tokens, tags) for the shared
 * scan, and returns them. Call at module level, once per protocol module. A marker should not be
 * a prefix of another format's marker (the longer one would hide it where both match).
 */
export function defineMarkers<const T extends readonly string[]>(...markers: T): T {
  for (const marker of markers) {
    if (!registered.has(marker)) {
      registered.add(marker)
      longestMarker = Math.max(longestMarker, marker.length)
      combined = undefined
    }
  }
  return markers
}

function markerPattern(): RegExp {
  if (combined) return combined
  const alternatives = [...registered].sort((a, b) => b.length - a.length).map((marker) => marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  combined = new RegExp(alternatives.join('|'), 'g')
  return combined
}

/** One output as detectors see it. */
export interface OutputScan {
  readonly raw: string
  /** `raw` with reasoning blocks blanked (same offsets), so call syntax quoted in reasoning is not found. */
  readonly view: string
  /** Offset of the first non-whitespace character of `view`. */
  readonly start: number
  /**
   * Offset of the first occurrence of a registered marker in `view`, or -1 when there is none
   * before `limit` (the scan reads only as far as asked, so a detection near the start costs
   * nothing for the rest of the output).
   */
  first(marker: string, limit?: number): number
  /** Offset of the next occurrence of `marker` at or after `from` (a native search), or -1. */
  next(marker: string, from: number): number
  /** True when some registered marker starts before `limit`. */
  anyBefore(limit: number): boolean
}

class Scan implements OutputScan {
  readonly view: string
  readonly start: number
  private readonly found = new Map<string, number>()
  /** Every marker starting before this offset has been recorded. */
  private scanned = 0
  /** The first offset where any marker was found. */
  private earliest = Number.POSITIVE_INFINITY
  private readonly pattern: RegExp | undefined
  private readonly longest: number

  constructor(readonly raw: string) {
    this.view = reasoningView(raw).view
    this.start = skipSpace(this.view, 0)
    this.pattern = registered.size === 0 ? undefined : markerPattern()
    this.longest = longestMarker
  }

  /** Records every marker that starts before `limit` (and more, up to a window). */
  private scanTo(limit: number): void {
    const view = this.view
    if (this.scanned >= view.length || limit <= this.scanned || !this.pattern) return
    // Windows at least double, so the whole output is scanned at most about twice in all.
    const end = Math.min(view.length, Math.max(limit, this.scanned * 2, 256) + this.longest)
    const window = end >= view.length ? view : view.slice(0, end)
    const pattern = this.pattern
    pattern.lastIndex = this.scanned
    for (let match = pattern.exec(window); match !== null; match = pattern.exec(window)) {
      if (!this.found.has(match[0])) {
        this.found.set(match[0], match.index)
        if (match.index < this.earliest) this.earliest = match.index
      }
    }
    // A marker cut by the window's end is found by the next window, which starts before it.
    this.scanned = end >= view.length ? view.length : end - this.longest + 1
  }

  anyBefore(limit: number): boolean {
    this.scanTo(limit)
    return this.earliest < limit
  }

  first(marker: string, limit = Number.POSITIVE_INFINITY): number {
    const known = this.found.get(marker)
    if (known !== undefined) return known
    this.scanTo(limit)
    return this.found.get(marker) ?? -1
  }

  next(marker: string, from: number): number {
    const first = this.first(marker, from + 1)
    if (first >= from) return first
    if (first < 0 && this.scanned >= this.view.length) return -1
    return this.view.indexOf(marker, from)
  }
}

// `auto` runs every detector on the same output: the scan is made once and reused. One entry is
// enough (outputs are detected one at a time); comparing the same string object is O(1).
let last: Scan | undefined

/** The shared scan of `raw` (made on first use, reused by the next detector asking for the same output). */
export function scanOutput(raw: string): OutputScan {
  if (last === undefined || last.raw !== raw) last = new Scan(raw)
  return last
}

/**
 * The part of `view` a regex detector needs to search: all of it, or up to `limit` plus `reach`
 * chars (a call starting before `limit` fits its head in `reach`). A slice is O(1) in V8.
 */
export function searchWindow(view: string, limit: number | undefined, reach = 400): string {
  return limit === undefined || limit + reach >= view.length ? view : view.slice(0, limit + reach)
}

/**
 * Detection by special tokens: the earliest of `markers` (in the reasoning-free view) that `check`
 * accepts, tried at most `tries` occurrences per marker. `check` returns a confidence and a
 * reason, or `undefined` when the token there is not a call start.
 *
 * @param before only starts before this offset matter
 */
export function detectMarkers(
  raw: string,
  markers: readonly string[],
  before: number | undefined,
  check: (scan: OutputScan, at: number, marker: string) => ({ confidence: number } & DetectionReason) | undefined = (_scan, at, marker) => ({ confidence: 0.9, ...detectionReason('detectFoundMarker', { marker, at }) }),
  tries = 4,
): FormatDetection | undefined {
  const scan = scanOutput(raw)
  const limit = before ?? Number.POSITIVE_INFINITY
  // No marker of any format before the limit (a JSON call at the start): nothing to look at.
  if (!scan.anyBefore(limit)) return undefined
  let best: FormatDetection | undefined
  for (const marker of markers) {
    let at = scan.first(marker, best ? best.at + 1 : limit)
    for (let attempt = 0; at >= 0 && at < limit && attempt < tries; attempt++) {
      if (best && at > best.at) break
      const verdict = check(scan, at, marker)
      if (verdict) {
        if (!best || at < best.at || (at === best.at && verdict.confidence > best.confidence)) best = { at, ...verdict }
        break
      }
      at = scan.next(marker, at + marker.length)
    }
  }
  return best
}
