/**
 * The JavaScript engine's own error messages about the user's code (QuickJS in the browser, the
 * sucrase transpiler before it) as phrases of the UI's `codeError.*` keys, so a page in Chinese
 * says "'foo' 未定义" rather than "'foo' is not defined". The engines speak English only; each
 * pattern below is one of their message templates, matched whole, and its English key renders the
 * very same text (one key per template). A message no pattern knows (the code's own `throw new Error(…)`, a rare engine
 * text) stays as it is, marked English.
 */
import type { TFunction } from 'i18next'
import { corePhrase, translate, type CorePhrase, type Phrase } from './text'

/** `[pattern, key, parameter names of its groups]`: the engine's template, matched whole. */
type Rule = readonly [RegExp, string, readonly string[]]

const RULES: readonly Rule[] = [
  // QuickJS's parser. An empty token is the end of the input ("f(1," ends in the middle of a call).
  [/^unexpected token in expression: ''$/, 'endInExpression', []],
  [/^unexpected token in expression: '(.+)'$/, 'unexpectedTokenIn', ['token']],
  [/^unexpected end of input$/, 'unexpectedEnd', []],
  [/^unexpected end of string$/, 'endOfString', []],
  [/^expecting '(.+)'$/, 'expecting', ['token']],
  [/^invalid redefinition of lexical identifier$/, 'redefinition', []],
  [/^missing initializer for const variable$/, 'constInit', []],
  [/^invalid property name$/, 'propertyName', []],
  [/^break must be inside loop or switch$/, 'breakOutside', []],
  [/^duplicate label name$/, 'duplicateLabel', []],
  // sucrase, which strips the types first and so reports most syntax errors.
  [/^Unexpected token$/, 'unexpectedToken', []],
  [/^Unexpected token, expected "(.+)"$/, 'expected', ['token']],
  [/^Unterminated template$/, 'unterminatedTemplate', []],
  [/^Unterminated string constant$/, 'unterminatedString', []],
  [/^Unterminated comment$/, 'unterminatedComment', []],
  [/^Unterminated regular expression$/, 'unterminatedRegExp', []],
  // QuickJS at run time.
  [/^'(.+)' is not defined$/, 'notDefined', ['name']],
  [/^([\w$]+) is not initialized$/, 'notInitialized', ['name']],
  [/^'(.+)' is read-only$/, 'readOnly', ['name']],
  [/^not a function$/, 'notAFunction', []],
  [/^cannot read property '(.*)' of (undefined|null)$/, 'cannotRead', ['property', 'value']],
  [/^cannot set property '(.*)' of (undefined|null)$/, 'cannotSet', ['property', 'value']],
  [/^cannot convert to object$/, 'toObject', []],
  [/^not an object$/, 'notObject', []],
  [/^value is not iterable$/, 'notIterable', []],
  [/^class constructors must be invoked with 'new'$/, 'classNew', []],
  [/^object is not extensible$/, 'notExtensible', []],
  [/^invalid array length$/, 'arrayLength', []],
  [/^stack overflow$/, 'stackOverflow', []],
  [/^out of memory$/, 'outOfMemory', []],
]

/** The sandbox's own words about a file, with no error name in front (matched on the whole message). */
const UNNAMED_RULES: readonly Rule[] = [
  [/^model\.ts has no default export\. Add `export default function model\(ctx: ModelContext\) \{ … \}`\.$/, 'noDefaultExport', []],
  [/^top-level await is not supported; move it into a tool's execute or the model function$/, 'topLevelAwait', []],
]

/** Every key {@link codeErrorPhrase} can return, under `codeError.` (a unit test checks each has its text). */
export const CODE_ERROR_KEYS: readonly string[] = [...RULES, ...UNNAMED_RULES].map(([, key]) => key)

function matchRules(rules: readonly Rule[], text: string, error: string | undefined): Phrase | undefined {
  for (const [pattern, key, names] of rules) {
    const match = pattern.exec(text)
    if (!match) continue
    const params = Object.fromEntries(names.map((name, i) => [name, match[i + 1] ?? '']))
    return { key: `codeError.${key}`, params: error === undefined ? params : { error, ...params } }
  }
  return undefined
}

/**
 * `message` (`SyntaxError: expecting ';'`, as a code problem carries it) as a phrase of
 * `codeError.*`, the error's name (an identifier, kept in every language) as `error`; `undefined`
 * for a message that is not one of the engines' known templates.
 */
export function codeErrorPhrase(message: string): Phrase | undefined {
  const named = /^(\w*Error): (.*)$/.exec(message)
  if (!named) return matchRules(UNNAMED_RULES, message, undefined)
  const [, error = '', text = ''] = named
  return matchRules(RULES, text, error)
}

/**
 * A code problem's message in `t`'s language: translated when the engine's template is known
 * (`original` keeps the English, for a tooltip), else as it is with `lang: 'en'`.
 */
export function codeErrorText(t: TFunction, message: string): { text: string; original?: string; lang?: 'en' } {
  const phrase = codeErrorPhrase(message)
  if (!phrase) return { text: message, lang: 'en' }
  const text = t(phrase.key, { ...phrase.params, defaultValue: message })
  return text === message ? { text } : { text, original: message }
}

/**
 * What a code problem says, in `t`'s language: Toolstep's own phrase (a STORE_TEXT key)
 * translated, else the engine's message through {@link codeErrorText}.
 */
export function codeProblemText(t: TFunction, problem: { message: string; phrase?: CorePhrase | undefined }): { text: string; original?: string; lang?: 'en' } {
  return problem.phrase ? { text: translate(t, corePhrase('store', problem.phrase)) } : codeErrorText(t, problem.message)
}
