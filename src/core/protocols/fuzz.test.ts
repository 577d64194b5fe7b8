import { describe, expect, it } from 'vitest'
import { createFuzzer, MAX_FUZZ_INPUT, randomChunks, seededRandom } from '../../test/fuzz-inputs'
import { createStreamParser, protocols } from './index'
import type { ParseResult } from './types'

// Smoke run of the fuzzer (`npm run fuzz` runs 100 000+ inputs and reports timings). Wall time is
// not asserted here: timing assertions are flaky on shared machines. Every input goes through
// every protocol (24) and its stream parser, so the count keeps the run within the test timeout.
const INPUTS = 6_000

function checkShape(result: ParseResult, raw: string): void {
  if (!Array.isArray(result.calls) || typeof result.text !== 'string' || !Array.isArray(result.errors) || !Array.isArray(result.repairs)) {
    throw new Error('malformed result')
  }
  for (const call of result.calls) {
    if (typeof call.name !== 'string' || typeof call.arguments !== 'object' || call.arguments === null) throw new Error('malformed call')
    for (const span of [call.spans.call, call.spans.name, call.spans.arguments]) {
      if (span && (span.start < 0 || span.end > raw.length || span.start > span.end)) throw new Error(`span out of range: ${JSON.stringify(span)}`)
    }
  }
  for (const error of result.errors) if (error.message === '') throw new Error(`error ${error.code} has no message`)
}

describe('fuzz smoke', () => {
  it(`no protocol and no stream parser throws on ${INPUTS} mutated outputs`, () => {
    const nextInput = createFuzzer(0x70_01_57)
    const next = seededRandom(0xc4_0c)
    let longest = 0
    for (let index = 0; index < INPUTS; index++) {
      const raw = nextInput()
      longest = Math.max(longest, raw.length)
      for (const protocol of protocols) {
        try {
          checkShape(protocol.parse(raw), raw)
        } catch (error) {
          expect.fail(`${protocol.id} on input ${index} ${JSON.stringify(raw.slice(0, 200))}: ${String(error)}`)
        }
      }
      // One protocol per input streams it, in turn, so every protocol's stream path is covered.
      const protocol = protocols[index % protocols.length]
      if (!protocol) continue
      try {
        const parser = createStreamParser(protocol.id)
        for (const piece of randomChunks(raw, next)) parser.push(piece)
        const streamed = parser.end()
        if (JSON.stringify(streamed) !== JSON.stringify(protocol.parse(raw))) throw new Error('end() differs from parse()')
      } catch (error) {
        expect.fail(`stream ${protocol.id} on input ${index} ${JSON.stringify(raw.slice(0, 200))}: ${String(error)}`)
      }
    }
    expect(longest).toBeLessThanOrEqual(MAX_FUZZ_INPUT)
  })
})
