/**
 * Hostile model outputs for the worst-case measurements (issue 11 item 9): each format's opening
 * tokens repeated, unclosed openers, runs of `{` `[` `"` `\`, nested tags, deep nesting, long
 * runs of whitespace and tokens that almost match. Every input is about `size` UTF-16 code units.
 *
 * The inputs come in families ({@link GENERATORS}); `base` is the fixed list above, the others are
 * generated: every prefix of every format's typical output repeated, every short run of brackets,
 * quotes and backslashes, nesting up to the reader's depth limit, tag soup, unclosed fences, and
 * every format's opener repeated, cut at every point, before an unclosed string or deep nesting,
 * and small values that hold no call repeated.
 */
import { formats } from '../src/core/protocols/index'

/** Tokens that open or structure a call in some format, as they appear in outputs. */
export const TOKENS: readonly string[] = [
  '<tool_call>', '</tool_call>', '<tool>', '<function_call>', '<function=', '<function=f>', '<function name=', '<function name="f">', '</function>',
  '<parameter=', '<parameter=a>', '</parameter>', '<arg_key>', '<arg_value>', '<invoke name="f">', '<parameter name="a">', '</invoke>',
  '<minimax:tool_call>', '<seed:tool_call>', '<seed:think>', '<think>', '</think>', '<thinking>', '[THINK]', '[/THINK]',
  '[TOOL_CALLS]', '[ARGS]', '[CALL_ID]', '[TOOL:', '[TOOL :', '[TOOL: f]', 'functools[', '<|tool_call|>', '<|python_tag|>', '<|python_start|>',
  '<|tool_call_start|>', '<|channel|>', '<|message|>', '<|start|>', '<|call|>', '<|constrain|>', '<｜tool▁calls▁begin｜>', '<｜tool▁call▁begin｜>',
  '<｜tool▁sep｜>', '<|tool_calls_section_begin|>', '<|tool_call_begin|>', '<|tool_call_argument_begin|>', '<｜DSML｜function_calls>',
  '<｜DSML｜invoke name="f">', '<｜DSML｜parameter name="a" string="false">', '<|START_ACTION|>', 'Action:', 'Action: ```json\n[',
  '<|action_start|><|plugin|>', '<|START_THINKING|>', '<<call ', '```', '```json\n', '```python\n', '"function"', '"tool_calls": [',
  '{"name": "f", "arguments": ', '{"tool": "f", "arguments": {', '[{"type": "function", ', 'f(a=1, ', 'f(', '[f(', '"""',
]

/** Single characters and short pieces that start a value or a string somewhere. */
const PIECES: readonly string[] = ['{', '[', '"', "'", '\\', '(', '<', '{"', "{'", '[{', '{"a":', '{"a":[', '[[', '{"a": "\\', 'f(a=', '\\"', '=', ':', '|', '｜', ' ', '\n', '\t']

function repeat(piece: string, size: number): string {
  return piece.repeat(Math.max(1, Math.floor(size / piece.length)))
}

/** A token without its last character (a token that almost matches). */
function almost(token: string): string {
  return token.length > 2 ? token.slice(0, -1) : token
}

/** A labelled hostile input. */
export type HostileInput = readonly [label: string, raw: string]

/** The input families, by name (`scripts/worst-case.ts --generators`). */
export const GENERATORS = ['base', 'prefixes', 'unbalanced', 'deep', 'tags', 'fences', 'alternating', 'runs', 'openers', 'values'] as const
export type GeneratorName = (typeof GENERATORS)[number]

/**
 * The hostile inputs of about `size` code units of the given families (default: all), labelled,
 * without duplicates; with `keep`, only those whose label it accepts (the others are not kept).
 */
export function hostileInputs(size: number, generators: readonly GeneratorName[] = GENERATORS, keep?: (label: string) => boolean): HostileInput[] {
  const seen = new Set<string>()
  const out: HostileInput[] = []
  const families: Record<GeneratorName, (size: number) => Generator<HostileInput>> = {
    base: baseInputs,
    prefixes: prefixInputs,
    unbalanced: unbalancedInputs,
    deep: deepInputs,
    tags: tagInputs,
    fences: fenceInputs,
    alternating: alternatingInputs,
    runs: runInputs,
    openers: openerInputs,
    values: valueInputs,
  }
  // Generated one at a time, so picking a few inputs at a large size holds only those.
  for (const name of generators) {
    for (const input of families[name](size)) {
      if (seen.has(input[1]) || (keep && !keep(input[0]))) continue
      seen.add(input[1])
      out.push(input)
    }
  }
  return out
}

/** The depth limit of the JSON readers (`JsonReadOptions.maxDepth`'s default). */
const MAX_DEPTH = 512

/** The outputs a format typically produces: its example, and its rendering of a call after some text and of two calls. */
function typicalOutputs(): string[] {
  const call = { name: 'get_weather', arguments: { city: 'Paris', days: [1, 2], units: { c: true } } }
  const other = { name: 'send_email', arguments: { to: 'a@b.c', body: 'say "hi"\n' } }
  const outputs: string[] = []
  for (const protocol of formats) {
    outputs.push(protocol.example)
    outputs.push(protocol.render({ text: 'Sure.', calls: [call] }))
    outputs.push(protocol.render({ calls: [call, other] }))
  }
  return outputs
}

/** Every prefix (up to 100 characters) of every typical output, repeated: a call cut at each point, again and again. */
function* prefixInputs(size: number): Generator<HostileInput> {
  for (const output of typicalOutputs()) {
    for (let length = 1; length <= Math.min(output.length, 100); length++) {
      const prefix = output.slice(0, length)
      yield [`${JSON.stringify(prefix)} repeated (a prefix of a typical output)`, repeat(prefix, size)]
    }
  }
}

/** Every run of one to three brackets, quotes, backslashes, colons and commas, repeated. */
function* unbalancedInputs(size: number): Generator<HostileInput> {
  const alphabet = ['{', '}', '[', ']', '(', '"', "'", '\\', ':', ',']
  let runs = ['']
  for (let length = 1; length <= 3; length++) {
    runs = runs.flatMap((run) => alphabet.map((char) => run + char))
    for (const run of runs) yield [`${JSON.stringify(run)} repeated`, repeat(run, size)]
  }
  for (const run of ['{"a": "x\\"', '{"a": "\\\\', '"\\\\"', '{"a": [', '{"a": {"b": ', '["a", ', "{'a': '", '{a: ', '{"a": 1,', '[1, ', '[-', '[1.', '[1e', '[tru', '{"a": tr']) {
    yield [`${JSON.stringify(run)} repeated`, repeat(run, size)]
  }
}

/** Nesting up to the depth limit and one past it, repeated, bare and after a format's opener. */
function* deepInputs(size: number): Generator<HostileInput> {
  for (const depth of [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1]) {
    for (const [open, close] of [['[', ']'], ['{"a":', '}'], ['{"a":[', ']}'], ["{'a':", '}'], ['(', ')']] as const) {
      const unit = open.repeat(depth)
      yield [`(${JSON.stringify(open)} × ${depth}) repeated, unclosed`, repeat(unit, size)]
      yield [`(${JSON.stringify(open)} × ${depth} 1 ${JSON.stringify(close)} × ${depth}) repeated`, repeat(`${unit}1${close.repeat(depth)}`, size)]
    }
    for (const opener of ['<tool_call>', '[TOOL_CALLS]', '{"tool": "f", "arguments": ', '```json\n', 'f(a=', '<|python_tag|>', '[TOOL_CALLS]f[ARGS]']) {
      yield [`(${JSON.stringify(opener)} + [ × ${depth}) repeated`, repeat(opener + '['.repeat(depth), size)]
    }
  }
}

/** Format tokens followed by the start of a call that never ends, repeated (tag soup). */
function* tagInputs(size: number): Generator<HostileInput> {
  const bodies = ['{"name": "f", "arguments": {', '{"name": "f", "arguments": {"a": "', '{"name": "f"', '{"name":', 'f', 'f>', 'f">', '<', '"', '\\']
  for (const token of TOKENS) {
    for (const body of bodies) yield [`(${JSON.stringify(token)} + ${JSON.stringify(body)}) repeated`, repeat(token + body, size)]
    yield [`${JSON.stringify(token)} repeated, then a call`, `${repeat(token, size - 60)}{"name": "f", "arguments": {"a": 1}}`]
  }
  for (const [open, close] of [['<tool_call>', '</tool_call>'], ['<function=f>', '</function>'], ['<parameter=a>', '</parameter>'], ['[TOOL_CALLS]', '[ARGS]']] as const) {
    yield [`${open} × n, then ${close} × n`, repeat(open, Math.floor(size / 2)) + repeat(close, Math.floor(size / 2))]
    yield [`(${open}${close}) repeated`, repeat(open + close, size)]
  }
}

/**
 * The tokens that open a call in some format, each with the start of a body that format expects
 * (a call's first characters): what {@link alternatingInputs} interleaves.
 */
const OPENERS: readonly string[] = [
  '<tool_call>{"name": "f", "arguments": {', '<tool_call>\n<function=f>\n<parameter=a>', '<function=f>{"a": ', '<function_call>{"name": ',
  '[TOOL_CALLS][{"name": "f", ', '[TOOL_CALLS]f[ARGS]{', '[TOOL: f] [ARGS: {', '[TOOL:f|a=', '<|python_tag|>{"name": "f", ', 'functools[{"name": ',
  '<|tool_call|>[{"name": ', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{', '<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{',
  '<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{', '<minimax:tool_call><invoke name="f"><parameter name="a">', '<｜DSML｜function_calls><｜DSML｜invoke name="f">',
  '<seed:tool_call><function=f><parameter=a>', 'Action: ```json\n[{"tool_name": "f", ', '<|action_start|><|plugin|>{"name": "f", ', '[f(a=1, ', '{"tool": "f", "arguments": {', '{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{',
  '<think>', '```json\n{', 'f(a=',
]

/** Every pair of two formats' openers, alternating: each opener cuts the other's call short. */
function* alternatingInputs(size: number): Generator<HostileInput> {
  for (const first of OPENERS) {
    for (const second of OPENERS) {
      if (first !== second) yield [`(${JSON.stringify(first)} + ${JSON.stringify(second)}) repeated`, repeat(first + second, size)]
    }
  }
}

/**
 * Each format's opener (with the start of its body) repeated, alone and cut at every point (many
 * partial markers), followed by a string that never closes, and by nesting to the depth limit.
 */
function* openerInputs(size: number): Generator<HostileInput> {
  for (const opener of OPENERS) {
    yield [`${JSON.stringify(opener)} repeated (an opener)`, repeat(opener, size)]
    for (let length = 1; length < opener.length; length++) {
      const cut = opener.slice(0, length)
      yield [`${JSON.stringify(cut)} repeated (a cut opener)`, repeat(cut, size)]
    }
    yield [`${JSON.stringify(opener)} + an unclosed string`, `${opener}"${'x'.repeat(Math.max(0, size - opener.length - 1))}`]
    yield [`(${JSON.stringify(opener)} + "x) repeated`, repeat(`${opener}"x`, size)]
    yield [`(${JSON.stringify(opener)} + [ × ${MAX_DEPTH}) repeated`, repeat(opener + '['.repeat(MAX_DEPTH), size)]
    yield [`(${JSON.stringify(opener)} + {"a": × ${MAX_DEPTH}) repeated`, repeat(opener + '{"a":'.repeat(MAX_DEPTH), size)]
  }
}

/** Long runs inside a value: backslashes, digits, exponents, signs, spaces, word characters, escapes. */
function* runInputs(size: number): Generator<HostileInput> {
  const body = size - 64
  for (const opener of ['', '{"tool": "f", "arguments": {"a": ', '<tool_call>{"name": "f", "arguments": {"a": ', '[TOOL_CALLS][{"name": "f", "arguments": {"a": ', 'f(a=', '[TOOL:f|a=', '<function=f>\n<parameter=a>\n']) {
    const at = opener
    const runs: readonly (readonly [string, string])[] = [
      ['"' + '\\'.repeat(body), 'a string of backslashes, unclosed'],
      ['"' + '\\\\'.repeat(Math.floor(body / 2)) + '"', 'a string of escaped backslashes'],
      ['"' + '\\"'.repeat(Math.floor(body / 2)), 'a string of escaped quotes, unclosed'],
      ['"' + '\\u00'.repeat(Math.floor(body / 4)), 'a string of cut \\u escapes'],
      ['1'.repeat(body), 'a huge number'],
      ['-' + '1'.repeat(body) + '.', 'a huge number cut after the point'],
      ['1.' + '0'.repeat(body) + 'e', 'a huge fraction cut in the exponent'],
      ['1e' + '9'.repeat(body), 'a huge exponent'],
      ['-'.repeat(body), 'a run of minus signs'],
      ['t'.repeat(body), 'a run of t (almost true)'],
      ['a'.repeat(body), 'a run of word characters'],
      [' '.repeat(body) + '}', 'whitespace, then }'],
      ['"' + 'x'.repeat(body), 'an unclosed string'],
      ["'" + 'x'.repeat(body), 'an unclosed single-quoted string'],
    ]
    for (const [run, label] of runs) yield [`${JSON.stringify(at)} + ${label}`, at + run]
  }
}

/**
 * Small JSON values that hold no call, each repeated (a value read per repetition), alone and
 * between words: numbers, literals, strings and empty containers in arrays, nested, and arrays
 * whose first number cannot be read (`[-`, `[1e`, `[1.x`), which fail at once.
 */
function* valueInputs(size: number): Generator<HostileInput> {
  const items = ['1', '-0.5e3', 'true', 'null', '"a"', '{}', '[]', '[1]', '"\\u00e9"', '{"a": 1}']
  const values: string[] = []
  for (const first of items) {
    values.push(`[${first}]`)
    for (const second of items) values.push(`[${first}, ${second}]`)
  }
  values.push('{}', '[[[1]]]', '[{}, [{}]]', '[-', '[1e', '[1.x', '[-1.e+]', '[01]', '[1.]', '[tru', "['']", "[']['")
  for (const value of values) {
    yield [`${JSON.stringify(value)} repeated (a value that holds no call)`, repeat(value, size)]
    yield [`(${JSON.stringify(value)} + " x ") repeated`, repeat(`${value} x `, size)]
  }
}

/** Code fences that never close, with and without a call-like start, repeated. */
function* fenceInputs(size: number): Generator<HostileInput> {
  for (const fence of ['```', '```json', '```json\n', '```python\n', '```tool_call\n', '~~~', 'Action: ```json\n']) {
    for (const body of ['', '{', '[', '{"tool": "f", "arguments": {', '[{"name": "f", "arguments": {', 'f(', '\n', 'text ']) {
      yield [`(${JSON.stringify(fence)} + ${JSON.stringify(body)}) repeated`, repeat(fence + body, size)]
    }
    yield [`${JSON.stringify(fence)} + unclosed call`, `${fence}{"tool": "f", "arguments": {"a": "${'x'.repeat(size)}`]
  }
}

function* baseInputs(size: number): Generator<HostileInput> {
  const half = Math.floor(size / 2)
  for (const piece of PIECES) yield [`${JSON.stringify(piece)} repeated`, repeat(piece, size)]
  for (const token of TOKENS) {
    yield [`${JSON.stringify(token)} repeated`, repeat(token, size)]
    yield [`${JSON.stringify(almost(token))} repeated (almost the token)`, repeat(almost(token), size)]
    // An opener and then a body that never ends: an unclosed string, unclosed braces, whitespace.
    yield [`${JSON.stringify(token)} + unclosed {"a": "…`, `${token}{"a": "${'x'.repeat(size)}`]
    yield [`${JSON.stringify(token)} + { repeated`, token + repeat('{', size)]
    yield [`${JSON.stringify(token)} + whitespace`, token + ' '.repeat(size)]
    yield [`(${JSON.stringify(token)} + {) repeated`, repeat(`${token}{`, size)]
    yield [`(${JSON.stringify(token)} + f) repeated`, repeat(`${token}f`, size)]
  }
  yield ['deep [ … ]', '['.repeat(half) + ']'.repeat(half)]
  yield ['deep {"a": … }', '{"a":'.repeat(Math.floor(size / 6)) + '1' + '}'.repeat(Math.floor(size / 6))]
  yield ['call with deep arguments', `{"tool": "f", "arguments": ${'['.repeat(half - 20)}${']'.repeat(half - 20)}}`]
  yield ['nested <tool_call>', '<tool_call>'.repeat(Math.floor(size / 24)) + '</tool_call>'.repeat(Math.floor(size / 24))]
  yield ['many calls', repeat('{"tool": "f", "arguments": {}} ', size)]
  yield ['many tagged calls', repeat('<tool_call>{"name": "f", "arguments": {}}</tool_call>', size)]
  yield ['many cut calls', repeat('{"tool": "f", "arguments": {"a": ', size)]
  yield ['whitespace then {', ' '.repeat(size) + '{']
  yield ['prose', repeat('The quick brown fox jumps over the lazy dog. ', size)]
}
