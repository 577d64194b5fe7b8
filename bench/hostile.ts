/**
 * Hostile model outputs for the worst-case measurements (issue 11 item 9): each format's opening
 * tokens repeated, unclosed openers, runs of `{` `[` `"` `\`, nested tags, deep nesting, long
 * runs of whitespace and tokens that almost match. Every input is about `size` UTF-16 code units.
 */

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

/** Every hostile input of about `size` code units, labelled. */
export function hostileInputs(size: number): Array<readonly [label: string, raw: string]> {
  const out: Array<readonly [string, string]> = []
  const half = Math.floor(size / 2)
  for (const piece of PIECES) out.push([`${JSON.stringify(piece)} repeated`, repeat(piece, size)])
  for (const token of TOKENS) {
    out.push([`${JSON.stringify(token)} repeated`, repeat(token, size)])
    out.push([`${JSON.stringify(almost(token))} repeated (almost the token)`, repeat(almost(token), size)])
    // An opener and then a body that never ends: an unclosed string, unclosed braces, whitespace.
    out.push([`${JSON.stringify(token)} + unclosed {"a": "…`, `${token}{"a": "${'x'.repeat(size)}`])
    out.push([`${JSON.stringify(token)} + { repeated`, token + repeat('{', size)])
    out.push([`${JSON.stringify(token)} + whitespace`, token + ' '.repeat(size)])
    out.push([`(${JSON.stringify(token)} + {) repeated`, repeat(`${token}{`, size)])
    out.push([`(${JSON.stringify(token)} + f) repeated`, repeat(`${token}f`, size)])
  }
  out.push(['deep [ … ]', '['.repeat(half) + ']'.repeat(half)])
  out.push(['deep {"a": … }', '{"a":'.repeat(Math.floor(size / 6)) + '1' + '}'.repeat(Math.floor(size / 6))])
  out.push(['call with deep arguments', `{"tool": "f", "arguments": ${'['.repeat(half - 20)}${']'.repeat(half - 20)}}`])
  out.push(['nested <tool_call>', '<tool_call>'.repeat(Math.floor(size / 24)) + '</tool_call>'.repeat(Math.floor(size / 24))])
  out.push(['many calls', repeat('{"tool": "f", "arguments": {}} ', size)])
  out.push(['many tagged calls', repeat('<tool_call>{"name": "f", "arguments": {}}</tool_call>', size)])
  out.push(['many cut calls', repeat('{"tool": "f", "arguments": {"a": ', size)])
  out.push(['whitespace then {', ' '.repeat(size) + '{'])
  out.push(['prose', repeat('The quick brown fox jumps over the lazy dog. ', size)])
  return out
}
