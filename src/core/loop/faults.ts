/**
 * Fault injection for teaching: make a tool fail, time out, slow down, or return a huge or
 * garbage result, always or at one model turn.
 */
import type { Fault } from './settings'

/** The fault that applies to `tool` at model turn `step` (1-based), if any. */
export function faultFor(faults: readonly Fault[], tool: string, step: number): Fault | undefined {
  return faults.find((f) => f.tool === tool && (f.atStep === undefined || f.atStep === step))
}

/** Size of an injected `huge` result, chars. */
export const HUGE_RESULT_CHARS = 100_000

/** A `huge` result: the real result repeated up to {@link HUGE_RESULT_CHARS}. */
export function hugeResult(result: string): string {
  const unit = result.length > 0 ? result : 'x'
  return unit.repeat(Math.ceil(HUGE_RESULT_CHARS / unit.length)).slice(0, HUGE_RESULT_CHARS)
}

/** A `garbage` result: truncated JSON with control and replacement characters, the same every time. */
export const GARBAGE_RESULT = '{"status": "o\u0000k", "items": [1, 2, \uFFFD\uFFFD\u0007 <html><body>502 Bad Gateway'
