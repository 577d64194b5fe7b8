import { describe, expect, it } from 'vitest'
import { protocols } from './index'

// Mutated model outputs are covered by fuzz.test.ts (the one fuzzer, src/test/fuzz-inputs.ts);
// these are the inputs built to trigger deep nesting and backtracking.
describe('parsers never throw', () => {
  // How fast they are is measured by `npm run bench parse` (worst cases as ratios), not asserted here.
  it('on hostile shapes', () => {
    const hostile = [
      '{'.repeat(50_000),
      '['.repeat(50_000),
      '<tool_call>'.repeat(10_000),
      '<function=a>'.repeat(10_000),
      '<tool_call>\n<function=a>\n' + '<parameter=x'.repeat(10_000),
      '"'.repeat(50_000),
      "{'a': '" + "\\'".repeat(20_000),
      '<think>'.repeat(10_000),
      '{"tool": "x", "arguments": '.repeat(5_000),
      '{"a": 1} '.repeat(20_000),
    ]
    for (const raw of hostile) {
      for (const protocol of protocols) {
        expect(() => protocol.parse(raw), `${protocol.id} on ${raw.slice(0, 30)}`).not.toThrow()
      }
    }
  })
})
