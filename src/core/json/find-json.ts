/**
 * Finding JSON values embedded in prose.
 */
import { readJson, type JsonReadFailure, type JsonReadResult, type JsonReadSuccess } from './read-json'

const MAX_RETRIES_AFTER_TRUNCATION = 8

/** Options of {@link findJsonValues}. */
export interface FindJsonOptions {
  /** Offset to start looking from. Default 0. */
  from?: number
  /** Also consider arrays (`[`), not only objects (`{`). Default true. */
  arrays?: boolean
  /** Passed to {@link readJson} for every value. Default 0. */
  spanDepth?: number
}

/** What {@link findJsonValues} found: complete values in order, and a value cut off by the end of the text. */
export interface FoundJson {
  /** Top-level values, in order; a value nested in another is part of it and not listed again. */
  values: JsonReadSuccess[]
  /**
   * A value that was still open when the text ended (always the last candidate), with its
   * `partial` reading; absent when none was.
   */
  truncated?: JsonReadFailure
  /** Candidates that started like a value but were not valid JSON (at most 8), in order. */
  invalid?: JsonReadFailure[]
}

/** How many invalid candidates {@link findJsonValues} reports. */
const MAX_INVALID_REPORTED = 8

/**
 * Finds the JSON objects (and arrays) that appear in prose: every `{` or `[` outside an already
 * found value is tried with the lenient {@link readJson}; what reads becomes a value and scanning
 * resumes after it, so braces and brackets inside its strings are never mistaken for structure.
 * A failed attempt resumes where the reader stopped; an attempt cut off by the end of the text
 * is retried from the next character a bounded number of times (a stray apostrophe in prose can
 * swallow a real value that follows), so the scan stays linear.
 *
 * Pure; never throws.
 */
export function findJsonValues(text: string, options: FindJsonOptions = {}): FoundJson {
  const arrays = options.arrays ?? true
  const spanDepth = options.spanDepth ?? 0
  const values: JsonReadSuccess[] = []
  let truncated: JsonReadFailure | undefined
  let pos = options.from ?? 0
  let retriesAfterTruncation = 0
  const invalid: JsonReadFailure[] = []
  const length = text.length
  while (pos < length) {
    const code = text.charCodeAt(pos)
    if (code !== 0x7b && !(arrays && code === 0x5b)) {
      pos++
      continue
    }
    const result: JsonReadResult = readJson(text, pos, { spanDepth })
    if (result.ok) {
      // A value read after a cut-off attempt shows the attempt was prose (an apostrophe taken
      // for a quote, a stray brace), not a cut-off value.
      truncated = undefined
      values.push(result)
      pos = result.end
      continue
    }
    if (result.error.code === 'truncated') {
      truncated ??= result
      // Every retry reads to the end of the text, so a fixed budget keeps the scan linear.
      if (++retriesAfterTruncation > MAX_RETRIES_AFTER_TRUNCATION) break
      pos++
      continue
    }
    if (invalid.length < MAX_INVALID_REPORTED) invalid.push(result)
    pos = Math.max(pos + 1, result.error.offset)
  }
  return { values, ...(truncated ? { truncated } : {}), ...(invalid.length ? { invalid } : {}) }
}
