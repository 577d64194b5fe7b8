/**
 * Streaming parse: the best reading after every chunk, and the one-shot result at the end.
 */
import type { ParseResult, Protocol, StreamScanner } from '../types'
import { ReparseScanner } from './reparse-scanner'
import type { StreamParser, StreamSnapshot } from './types'

/**
 * Creates an incremental parser for one output in the protocol `protocolId`.
 *
 * `push` returns a {@link StreamSnapshot} after every chunk; `end` returns exactly what
 * `protocol.parse` returns for the concatenation of the chunks, however the output was split
 * (it runs the one-shot parser, so the final reading has its spans, repairs and errors).
 *
 * Each protocol supplies its own reader (`Protocol.createScanner`), so adding a format needs no
 * change here. Cost: linear in the output length for any chunking.
 * - Formats with an incremental scanner (`json`, `llama3-json`, `xml-tag`, `openai`) keep their
 *   state between chunks: each character is examined a constant number of times (a token split
 *   across chunks is carried over, bounded by the longest token), and snapshots share structure
 *   instead of copying it, so a snapshot costs O(1) beyond its chunk.
 * - Every other format, `auto`, and those four once the output takes a shape their scanner does
 *   not follow, re-run the one-shot (linear) parser on the buffer, but only when it has grown by
 *   half since the last run, doubled past 64 K code units (see `ReparseScanner`): streaming a large
 *   output costs about three one-shot parses in all (with `end`). In between, the last reading is returned with `received` updated.
 * - Chunks are kept in a list and joined only at those re-parses and at `end`, so pushing never
 *   copies the buffer.
 *
 * @param protocol the protocol to read (the registry's `createStreamParser` takes an id)
 */
export function streamParserFor(protocol: Protocol): StreamParser {
  let chunks: string[] = []
  let received = 0
  let scanner: StreamScanner = protocol.createScanner()

  const buffer = (): string => {
    if (chunks.length !== 1) chunks = [chunks.join('')]
    return chunks[0] ?? ''
  }

  return {
    push(chunk: string): StreamSnapshot {
      if (chunk !== '') {
        chunks.push(chunk)
        received += chunk.length
      }
      scanner.write(chunk)
      if (scanner.gaveUp) {
        scanner = new ReparseScanner(protocol.parse, buffer())
        scanner.write('')
      }
      // A literal of the same shape rather than a spread: this runs once per chunk.
      return { protocol: scanner.protocol?.() ?? protocol.id, received, calls: scanner.calls, forming: scanner.forming(), text: scanner.text(), reading: scanner.reading }
    },
    end(): ParseResult {
      return protocol.parse(buffer())
    },
  }
}
