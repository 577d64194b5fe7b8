/**
 * What a JavaScript engine's `JSON.parse` said, as a phrase the UI can translate. The engine's
 * message is English (V8: `Unterminated string in JSON at position 7 (line 1 column 8)`;
 * SpiderMonkey: `JSON.parse: unterminated string at line 1 column 8 of the JSON data`), and
 * where Toolstep decides what it means ("the arguments are not valid JSON") the UI should not
 * show it in English inside a Chinese sentence. The phrase re-words the common messages from
 * their kind and position; its English, which the CLI, `--json` and the model get, stays the
 * engine's own message (the phrase is a {@link PhraseRef} whose `english` is that message, and
 * the message is kept as the `message` parameter for a tooltip).
 */
import { errorMessage } from './error-message'
import type { ParseTextKey } from './parse-text'
import { phrase, type Phrase, type PhraseRef } from './phrase'

/** Message patterns of V8 (Chromium, Node; old and new wording) and SpiderMonkey, first match wins. */
const KINDS: ReadonlyArray<readonly [RegExp, ParseTextKey]> = [
  [/unexpected end of (?:JSON input|data)|end of data/i, 'engineJsonEnd'],
  [/unterminated string/i, 'engineJsonString'],
  [/expected double-quoted property name/i, 'engineJsonQuotedName'],
  [/expected property name or '\}'|expected property name/i, 'engineJsonPropertyName'],
  [/expected ',' or '\}' after property value|after property value/i, 'engineJsonAfterProperty'],
  [/expected ',' or '\]' after array element|after array element/i, 'engineJsonAfterElement'],
  [/expected ':' after property name/i, 'engineJsonColon'],
  [/non-whitespace character after JSON/i, 'engineJsonTrailing'],
  [/bad unicode escape/i, 'engineJsonUnicode'],
  [/bad escaped character|bad escape/i, 'engineJsonEscape'],
  [/bad control character/i, 'engineJsonControl'],
  [/no number after minus sign|unterminated fractional number|exponent part is missing a number|missing digits|number/i, 'engineJsonNumber'],
  [/unexpected (?:token|character)/i, 'engineJsonToken'],
]

/** The longest excerpt of the input a re-worded message quotes (V8 already shortens its own). */
const MAX_QUOTED = 40

/**
 * `error` (what `JSON.parse` threw) as a phrase of `PARSE_TEXT` for the UI, with the engine's
 * message as its English. Pure; never throws. A message it does not recognise becomes
 * `engineJsonOther` (still with the position when the message gives one).
 */
export function engineJsonError(error: unknown): PhraseRef {
  const message = errorMessage(error)
  const p = engineJsonPhrase(message)
  return { ns: 'parse', key: p.key, ...(p.params ? { params: p.params } : {}), english: message }
}

/** The phrase for one of the engine's messages; `message` is among its parameters. */
export function engineJsonPhrase(message: string): Phrase {
  const notJson = /^("[^"]{0,200}") is not valid JSON$/.exec(message)
  if (notJson) return phrase('engineJsonNotJson', { text: notJson[1] ?? '', message })
  // V8 since 2023: `Unexpected token '}', "{"a":}" is not valid JSON` (an excerpt, no position).
  const quoted = /^Unexpected token ('[^']*'|\S+?), ("[\s\S]*") is not valid JSON$/.exec(message)
  if (quoted) return phrase('engineJsonTokenQuoted', { token: quoted[1] ?? '?', text: quoted[2] ?? '', message })
  const key = KINDS.find(([pattern]) => pattern.test(message))?.[1] ?? 'engineJsonOther'
  if (key === 'engineJsonEnd') return phrase(key, { message })
  const where = whereIn(message)
  if (key !== 'engineJsonToken') return phrase(key, { where, message })
  // Older V8: `Unexpected token } in JSON at position 5`; SpiderMonkey: `unexpected character at line 1 column 6`.
  const token = /unexpected (?:token|character) ('[^']*'|\S+?)(?:,| in JSON| at|$)/i.exec(message)?.[1] ?? '?'
  return phrase(key, { token: token.length > MAX_QUOTED ? `${token.slice(0, MAX_QUOTED - 1)}…` : token, where, message })
}

/** Where the message says the JSON broke, as a phrase (`engineJsonAt…`), or `engineJsonSomewhere`. */
function whereIn(message: string): Phrase {
  const position = /at position (\d+)/i.exec(message)?.[1]
  const lineColumn = /line (\d+) column (\d+)/i.exec(message)
  if (position !== undefined && lineColumn) return phrase('engineJsonAtLine', { position: Number(position), line: Number(lineColumn[1]), column: Number(lineColumn[2]) })
  if (position !== undefined) return phrase('engineJsonAtPosition', { position: Number(position) })
  if (lineColumn) return phrase('engineJsonAtLineOnly', { line: Number(lineColumn[1]), column: Number(lineColumn[2]) })
  return phrase('engineJsonSomewhere')
}

