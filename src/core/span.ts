/**
 * Offsets into raw text, shared by the JSON reader and the protocols (a leaf module: it imports
 * nothing, so neither depends on the other for it).
 */

/** Half-open range `[start, end)` of UTF-16 code-unit offsets into the raw output (JS string indices). */
export interface Span {
  start: number
  end: number
}
