/**
 * Mutated model outputs for the fuzz test and `npm run fuzz`: every fixture and every protocol's
 * rendering of a few outputs, changed by random edits. Deterministic for a given seed, so a
 * failing input can be regenerated from the seed and its index.
 */
import { fixtureCases } from './fixture-cases'
import { protocols } from '../core/protocols'
import type { RenderableOutput } from '../core/protocols/types'

/** Inputs are cut to this many UTF-16 code units (the fuzz budget is stated for inputs ≤ 10 KB). */
export const MAX_FUZZ_INPUT = 10_240

/** mulberry32: a small, fast, seeded PRNG returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const renderable: RenderableOutput[] = [
  { calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  { text: 'Let me check both.', calls: [{ name: 'get_weather', arguments: { city: 'Zürich', unit: 'celsius' } }, { name: 'get_time', arguments: { timezone: 'Asia/Tokyo' } }] },
  { calls: [{ name: 'add', arguments: { a: 1, b: 2.5, flags: [true, false], note: null, nested: { q: 'say "hi" } done 東京 😀' } } }] },
]

/** The unmutated inputs: every fixture's raw output and every protocol's rendering of a few outputs. */
export const fuzzSeeds: readonly string[] = [
  ...fixtureCases.map((testCase) => testCase.raw),
  ...protocols.flatMap((protocol) => renderable.map((output) => protocol.render(output))),
]

/** Fragments that matter to some parser: brackets, quotes, escapes, tags, special tokens, literals. */
const PIECES = [
  '{', '}', '[', ']', '(', ')', '"', "'", '"""', '\\', '\\"', '\\u', ':', ',', ';', '=', '|', '<', '>', '/', '\n', '\r\n', '\t', ' ',
  'a', '0', '-', '1e', '.', 'True', 'None', 'nul', '<tool_call>', '</tool_call>', '<tool>', '</tool>', '<function=', '</function>',
  '<parameter=', '</parameter>', '<arg_key>', '<arg_value>', '<think>', '</think>', '```', '```json\n', '[TOOL_CALLS]', '[ARGS]',
  '[TOOL:', '<|tool_call|>', '<|python_tag|>', '<|channel|>', '<|message|>', '<|call|>', '<｜tool▁calls▁begin｜>', '<｜tool▁sep｜>',
  '<|tool_calls_section_begin|>', '<|tool_call_begin|>', '<|START_ACTION|>', 'functools[', '{"name": "f", "arguments": ',
  '{"tool": "x", "arguments": {', 'f(a=1, ', '(3, 4)', '\\_', '<minimax:tool_call>', '<invoke name="f">', '<parameter name="a">',
  '</invoke>', '<｜DSML｜function_calls>', '<｜DSML｜invoke name="f">', '<｜DSML｜parameter name="a" string="false">', '</｜DSML｜parameter>',
  '<|tool_calls_begin|>', '<|tool_sep|>', '<seed:think>', '</seed:think>', '<seed:tool_call>', '<|action_start|><|plugin|>', '<|action_end|>',
  '[THINK]', '[/THINK]', '<function name="f">', '<|tool_call_start|>', '<|python_start|>', '"function_call": {', 'Action: ```json\n[', '{"tool_name": "f", "parameters": ', '<|/tool_call|>', '```tool_code\n', '東', '😀', '\ud83d', '\ude00', '\u0000', '\u200b', '\u202e', '\ufeff', '\u00a0',
]

/** A random code point: mostly BMP, some astral, some lone surrogates and controls. */
function randomCodePoint(next: () => number): string {
  const roll = next()
  if (roll < 0.4) return String.fromCharCode(0x20 + Math.floor(next() * 0x5f))
  if (roll < 0.7) return String.fromCharCode(Math.floor(next() * 0xd800))
  if (roll < 0.85) return String.fromCodePoint(0x10000 + Math.floor(next() * 0xfffff))
  if (roll < 0.95) return String.fromCharCode(0xd800 + Math.floor(next() * 0x800))
  return String.fromCharCode(Math.floor(next() * 0x20))
}

const WRAPPERS: ReadonlyArray<readonly [string, string]> = [
  ['<tool_call>', '</tool_call>'],
  ['{"tool": "x", "arguments": ', '}'],
  ['[', ']'],
  ['```json\n', '\n```'],
  ['<think>', '</think>'],
  ['[TOOL_CALLS]', ''],
  ['{"role": "assistant", "content": ', ', "tool_calls": []}'],
  ['f(a=', ')'],
  ['<minimax:tool_call>\n<invoke name="f">\n<parameter name="a">', '</parameter>\n</invoke>\n</minimax:tool_call>'],
  ['[THINK]', '[/THINK]'],
  ['<seed:tool_call>\n<function=f>\n<parameter=a>', '</parameter>\n</function>\n</seed:tool_call>'],
  ['"', '"'],
  ['Action: ```json\n[{"tool_name": "f", "parameters": ', '}]\n```'],
  ['<|tool_call|>[', ']<|/tool_call|>'],
]

/** One random edit of `text`. */
export function mutate(text: string, next: () => number): string {
  const at = Math.floor(next() * (text.length + 1))
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
  switch (Math.floor(next() * 10)) {
    case 0:
    case 1:
      return text.slice(0, at) + pick(PIECES) + text.slice(at)
    case 2: {
      let noise = ''
      const count = 1 + Math.floor(next() * 8)
      for (let index = 0; index < count; index++) noise += randomCodePoint(next)
      return text.slice(0, at) + noise + text.slice(at)
    }
    case 3:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(next() * 8))
    case 4: {
      const end = Math.min(text.length, at + 1 + Math.floor(next() * 40))
      return text.slice(0, end) + text.slice(at, end) + text.slice(end)
    }
    case 5:
      return next() < 0.7 ? text.slice(0, at) : text.slice(at)
    case 6: {
      const [open, close] = pick(WRAPPERS)
      return open + text + close
    }
    case 7: {
      const times = 2 + Math.floor(next() * 6)
      return Array.from({ length: times }, () => text).join(pick(['', '\n', ' ', ', ', '; ']))
    }
    case 8: {
      const other = pick(fuzzSeeds)
      return text.slice(0, at) + other.slice(Math.floor(next() * other.length))
    }
    default: {
      // Change one character into a structurally important one.
      if (text.length === 0) return pick(PIECES)
      return text.slice(0, at) + pick(['{', '}', '"', "'", '<', '>', '[', ']', '\\']) + text.slice(at + 1)
    }
  }
}

/**
 * An endless deterministic source of fuzz inputs: a seed input with one to four random edits,
 * cut to {@link MAX_FUZZ_INPUT}.
 */
export function createFuzzer(seed: number): () => string {
  const next = seededRandom(seed)
  return () => {
    let text = fuzzSeeds[Math.floor(next() * fuzzSeeds.length)] ?? ''
    const rounds = 1 + Math.floor(next() * 4)
    for (let round = 0; round < rounds; round++) {
      text = mutate(text, next)
      if (text.length > MAX_FUZZ_INPUT) text = text.slice(0, MAX_FUZZ_INPUT)
    }
    return text
  }
}

/** Splits `text` into random chunks (sizes 0 to 2 × a random scale), for the stream parser. */
export function randomChunks(text: string, next: () => number): string[] {
  const scale = [1, 4, 16, 256][Math.floor(next() * 4)] ?? 1
  const pieces: string[] = []
  let pos = 0
  while (pos < text.length) {
    const size = Math.floor(next() * scale * 2)
    pieces.push(text.slice(pos, pos + size))
    pos += size
  }
  return pieces
}
