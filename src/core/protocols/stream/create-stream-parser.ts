/**
 * Streaming parse: the best reading after every chunk, and the one-shot result at the end.
 */
import { getProtocol } from '../index'
import type { ParseResult } from '../types'
import { OpenAiScanner } from './openai-scanner'
import { TextScanner, type IncrementalScanner } from './text-scanner'
import type { StreamParser, StreamSnapshot, StreamingCall } from './types'

/**
 * Re-parse schedule of the fallback: the buffer is parsed again once it has grown by half its
 * length at the last parse (and by at least this many code units).
 */
const MIN_REPARSE_GROWTH = 16

function makeScanner(protocolId: string): IncrementalScanner | undefined {
  switch (protocolId) {
    case 'json':
    case 'llama3-json':
      return new TextScanner(false)
    case 'xml-tag':
      return new TextScanner(true)
    case 'openai':
      return new OpenAiScanner()
    default:
      return undefined
  }
}

function fromResult(result: ParseResult, received: number): StreamSnapshot {
  const calls: StreamingCall[] = result.calls.map((call) =>
    call.id === undefined ? { name: call.name, arguments: call.arguments, complete: true } : { name: call.name, arguments: call.arguments, id: call.id, complete: true },
  )
  return { protocol: result.protocol, received, calls, forming: undefined, text: result.text, reading: 'reparse' }
}

/**
 * Creates an incremental parser for one output in the protocol `protocolId`.
 *
 * `push` returns a {@link StreamSnapshot} after every chunk; `end` returns exactly what
 * `protocol.parse` returns for the concatenation of the chunks, however the output was split
 * (it runs the one-shot parser, so the final reading has its spans, repairs and errors).
 *
 * Cost: linear in the output length for any chunking.
 * - `json`, `llama3-json`, `xml-tag` and `openai` are read by incremental scanners that keep
 *   their state between chunks: each character is examined a constant number of times (a token
 *   split across chunks is carried over, bounded by the longest token), and snapshots share
 *   structure instead of copying it, so a snapshot costs O(1) beyond its chunk.
 * - Every other protocol, `auto`, and those four once the output takes a shape their scanner does
 *   not follow, re-run the one-shot (linear) parser on the buffer, but only when it has grown by
 *   half since the last run: the lengths parsed grow geometrically (×1.5) and sum to less than
 *   three times the final length, so streaming costs at most about four one-shot parses in all
 *   (with `end`). In between, the last reading is returned with `received` updated.
 * - Chunks are kept in a list and joined only at those re-parses and at `end`, so pushing never
 *   copies the buffer.
 *
 * @param protocolId a registry id (`auto` included)
 * @throws RangeError when no protocol has that id (a programming error, not an input error)
 */
export function createStreamParser(protocolId: string): StreamParser {
  const protocol = getProtocol(protocolId)
  if (!protocol) throw new RangeError(`Unknown protocol "${protocolId}".`)
  let chunks: string[] = []
  let received = 0
  let scanner = makeScanner(protocol.id)
  let parsedLength = -1
  let last: StreamSnapshot = { protocol: protocol.id, received: 0, calls: [], forming: undefined, text: '', reading: scanner ? 'incremental' : 'reparse' }

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
      if (scanner) {
        scanner.write(chunk)
        if (!scanner.gaveUp) {
          last = { protocol: protocol.id, received, calls: scanner.calls, forming: scanner.forming(), text: scanner.text(), reading: 'incremental' }
          return last
        }
        scanner = undefined
      }
      if (parsedLength < 0 || received - parsedLength >= Math.max(MIN_REPARSE_GROWTH, parsedLength / 2)) {
        parsedLength = received
        last = fromResult(protocol.parse(buffer()), received)
        return last
      }
      // A literal of the same shape rather than a spread: this runs once per chunk.
      last = { protocol: last.protocol, received, calls: last.calls, forming: undefined, text: last.text, reading: 'reparse' }
      return last
    },
    end(): ParseResult {
      return protocol.parse(buffer())
    },
  }
}
