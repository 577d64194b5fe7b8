/**
 * The streaming reader of formats without an incremental scanner: the one-shot parser re-run on
 * the buffer on a geometric schedule.
 */
import type { ParseResult, StreamScanner, StreamingCall } from '../types'

/**
 * Re-parse schedule: the buffer is parsed again once it has grown by half its length at the last
 * parse (and by at least this many code units)...
 */
const MIN_REPARSE_GROWTH = 16
/**
 * ...and, from this length on, once it has doubled: a large output then costs the one-shot parse
 * of less than twice its length in re-parses (×1.5 steps cost three times), while an output of
 * typical size is refreshed as often as before.
 */
const DOUBLING_FROM = 1 << 16

/**
 * A {@link StreamScanner} that re-runs `parse` on everything received, but only when the buffer
 * has grown by half since the last run (doubled, past 64 K code units): the lengths parsed grow
 * geometrically and sum to about twice the final length plus a constant, so streaming a large
 * output costs about two one-shot parses (plus the final one). In between, the last reading is kept. Chunks are kept in a list and joined
 * only at those re-parses, so writing never copies the buffer.
 *
 * @param parse the protocol's one-shot parser (linear, never throws)
 * @param received text already received before this scanner took over (a scanner that gave up)
 */
export class ReparseScanner implements StreamScanner {
  readonly reading = 'reparse' as const
  readonly gaveUp = false
  calls: readonly StreamingCall[] = []
  private chunks: string[]
  private length: number
  private parsedLength = -1
  private prose = ''
  private detected: string | undefined

  constructor(
    private readonly parse: (raw: string) => ParseResult,
    received = '',
  ) {
    this.chunks = received === '' ? [] : [received]
    this.length = received.length
  }

  write(chunk: string): void {
    if (chunk !== '') {
      this.chunks.push(chunk)
      this.length += chunk.length
    }
    if (this.parsedLength >= 0 && this.length - this.parsedLength < Math.max(MIN_REPARSE_GROWTH, this.parsedLength < DOUBLING_FROM ? this.parsedLength / 2 : this.parsedLength)) return
    this.parsedLength = this.length
    if (this.chunks.length !== 1) this.chunks = [this.chunks.join('')]
    const result = this.parse(this.chunks[0] ?? '')
    this.calls = result.calls.map((call) =>
      call.id === undefined ? { name: call.name, arguments: call.arguments, complete: true } : { name: call.name, arguments: call.arguments, id: call.id, complete: true },
    )
    this.prose = result.text
    this.detected = result.protocol
  }

  forming(): StreamingCall | undefined {
    return undefined
  }

  text(): string {
    return this.prose
  }

  protocol(): string | undefined {
    return this.detected
  }
}

/** A factory for {@link ReparseScanner}, for `Protocol.createScanner` of formats read by re-parsing. */
export function reparseScanner(parse: (raw: string) => ParseResult): () => StreamScanner {
  return () => new ReparseScanner(parse)
}
