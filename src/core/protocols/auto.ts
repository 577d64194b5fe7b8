/**
 * `auto`: picks the wire format from the output itself and says why. It knows no format: it asks
 * every protocol of the registry where its earliest plausible call starts (`Protocol.detect`) and
 * reads the output with the one whose call starts first.
 */
import { json } from './json'
import { reparseScanner } from './stream/reparse-scanner'
import { xmlTag } from './xml-tag'
import type { FormatDetection, ParseResult, Protocol } from './types'
import { parsePhrase, parseSaid, semicolonList } from '../util/parse-text'
import type { Phrase } from '../util/phrase'

/** Detections below this are not worth a parse. */
const MIN_CONFIDENCE = 0.3
/** Candidates parsed before giving up on finding a call (each parse is linear; this bounds their number). */
const MAX_PARSES = 4
/**
 * Characters the trial parses after the first may read in all: a short output tries up to
 * {@link MAX_PARSES} candidates, a long one stops when the extra parses have read twice its
 * length, so whatever it holds, choosing costs at most a few parses of it.
 */
const extraParseBudget = (length: number): number => 2 * length + 65_536
/** A detection this sure is kept even when its parse finds no call (an assistant message with text only). */
const CERTAIN = 0.9

/** A protocol and where it sees a call. */
export interface Candidate {
  protocol: Protocol
  detection: FormatDetection
}

function detectBefore(raw: string, formats: readonly Protocol[], bound: number | undefined, skip?: ReadonlySet<Protocol>): Candidate[] {
  const candidates: Candidate[] = []
  let best: FormatDetection | undefined
  for (const protocol of formats) {
    if (skip?.has(protocol)) continue
    const limit = best ? best.at + 1 : bound
    const detection = protocol.detect(raw, limit)
    if (!detection || detection.confidence < MIN_CONFIDENCE || (limit !== undefined && detection.at >= limit)) continue
    candidates.push({ protocol, detection })
    if (!best || detection.at < best.at || (detection.at === best.at && detection.confidence > best.confidence)) best = detection
  }
  return candidates.sort((a, b) => a.detection.at - b.detection.at || b.detection.confidence - a.detection.confidence)
}

/**
 * The formats' detections of `raw` that start earliest, earliest first (ties: higher confidence
 * first). Detectors are asked for starts before a bound that grows ×16 from the first
 * non-blank character until something is found, and each is told the best start so far, so a
 * call at the start of a long output costs no search of the rest.
 */
export function detectCandidates(raw: string, formats: readonly Protocol[]): Candidate[] {
  const start = raw.length - raw.trimStart().length
  // A call at the very start (the common case) is settled by the first round.
  for (let bound = start + 1; ; bound = bound <= start + 1 ? start + 4096 : bound * 16) {
    const last = bound > raw.length
    const candidates = detectBefore(raw, formats, last ? undefined : bound)
    if (candidates.length > 0 || last) return candidates
  }
}

/** What {@link createAuto} chose for one output. */
interface Choice {
  protocol: Protocol
  reason: string
  /** `reason` as a phrase of `PARSE_TEXT` (absent for a format from outside the registry that gives none). */
  phrase?: Phrase
  result: ParseResult
}

function choose(raw: string, formats: readonly Protocol[]): Choice {
  const candidates = detectCandidates(raw, formats)
  const passed: Phrase[] = []
  const tried = new Set<Protocol>()
  let budget = extraParseBudget(raw.length)
  let jsonResult: ParseResult | undefined
  // The earliest detection is usually right; when its parse finds nothing (a pattern that only
  // looked like a call), the next candidate is tried, then every later one, and the reason says so.
  const next = (index: number): Candidate | undefined => {
    if (index === candidates.length && candidates.length > 0) candidates.push(...detectBefore(raw, formats, undefined, tried))
    return candidates[index]
  }
  for (let index = 0, candidate = next(0); candidate !== undefined && tried.size < MAX_PARSES; candidate = next(++index)) {
    const { protocol, detection } = candidate
    if (tried.has(protocol)) continue
    if (tried.size > 0) {
      if (budget < raw.length) break
      budget -= raw.length
    }
    tried.add(protocol)
    const result = protocol.parse(raw)
    if (protocol === json) jsonResult = result
    // A format's own structure (a native message, a special token) is its reading even without calls.
    if (result.calls.length > 0 || result.errors.length > 0 || detection.confidence >= CERTAIN) {
      const misses = semicolonList(passed)
      if (!misses) return { protocol, reason: detection.reason, ...(detection.phrase ? { phrase: detection.phrase } : {}), result }
      // A format from outside the registry may give its reason in English only.
      const said = parseSaid('autoAfterMisses', { reason: detection.phrase ?? detection.reason, misses })
      return { protocol, reason: said.message, phrase: said.phrase, result }
    }
    passed.push(parsePhrase('autoMiss', { id: protocol.id, at: detection.at }))
  }
  // Parsing is pure: json's trial reading, when there was one, is the text reading.
  const result = jsonResult ?? json.parse(raw)
  const misses = semicolonList(passed)
  const said = candidates.length === 0 ? parseSaid('autoText') : parseSaid('autoTextAfterMisses', { misses: misses ?? '' })
  return { protocol: json, reason: said.message, phrase: said.phrase, result }
}

/**
 * Makes the `auto` protocol over `formats` (the registry passes its concrete formats, so a new
 * format is detected as soon as it is registered).
 */
export function createAuto(formats: () => readonly Protocol[]): Protocol & { detectProtocol(raw: string): { protocol: Protocol; reason: string; phrase?: Phrase } } {
  const parse = (raw: string): ParseResult => {
    const { protocol, reason, phrase, result } = choose(raw, formats())
    // Copied field by field: results of different formats have different shapes, and spreading
    // them took the slow generic path (a tenth of `auto`'s time on a 2 KB output).
    const parsed: ParseResult = { protocol: protocol.id, calls: result.calls, text: result.text, repairs: result.repairs, errors: result.errors, detection: reason }
    if (phrase) parsed.detectionPhrase = phrase
    if (result.reasoning !== undefined) parsed.reasoning = result.reasoning
    return parsed
  }
  return {
    id: 'auto',
    label: 'Auto-detect',
    description: 'Detects the format of each output (the earliest plausible call wins) and says which it chose and why.',
    native: false,
    parse,
    detect: (raw, before) => detectCandidates(raw, formats()).find((candidate) => candidate.detection.at < (before ?? Number.POSITIVE_INFINITY))?.detection,
    createScanner: reparseScanner(parse),
    instructions: (tools) => json.instructions(tools),
    example: xmlTag.example,
    // A model told to speak "auto" gets json's instructions, so it writes json.
    render: (output) => json.render(output),
    detectProtocol(raw: string) {
      const { protocol, reason, phrase } = choose(raw, formats())
      return { protocol, reason, ...(phrase ? { phrase } : {}) }
    },
  }
}
