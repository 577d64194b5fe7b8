/**
 * What a streaming parser shows while a model's output is still arriving.
 */
import type { ParseResult, StreamingCall } from '../types'

export type { StreamingCall } from '../types'

/**
 * The best reading of the output received so far, returned after every chunk.
 *
 * Snapshots are cheap to produce and therefore share structure: the `calls` array and the forming
 * call's `arguments` may be extended by later pushes (an entry already listed is not changed).
 * Copy what must stay fixed. The authoritative reading is {@link StreamParser.end}.
 */
export interface StreamSnapshot {
  /** Id of the protocol being read (for `auto`, the one detected at the last re-parse). */
  protocol: string
  /** UTF-16 code units received so far. */
  received: number
  /** Calls whose markup is complete, in order. */
  calls: readonly StreamingCall[]
  /** The call still being written, if any (`complete: false`). */
  forming: StreamingCall | undefined
  /**
   * Prose so far: text outside calls, reasoning blocks and control tokens. Markdown fence lines
   * are left out while streaming; the final result trims each piece and keeps fences that are
   * not around a call, so it may differ in whitespace and fences.
   */
  text: string
  /**
   * How this snapshot was produced: `incremental` (a scanner that keeps state between chunks) or
   * `reparse` (the one-shot parser re-run on the buffer, at most after every growth by half, so
   * a snapshot may lag behind the last chunks).
   */
  reading: 'incremental' | 'reparse'
}

/** An incremental parser for one output. See {@link createStreamParser}. */
export interface StreamParser {
  /** Consumes the next piece of output (any size, split anywhere, even inside a surrogate pair). */
  push(chunk: string): StreamSnapshot
  /**
   * The final result: exactly `protocol.parse` of everything pushed so far, whatever the chunking.
   * Pushing after `end()` continues the same output.
   */
  end(): ParseResult
}
