/**
 * What the sandbox itself says about user code (a `route()` that returned a number, a
 * `model.ts` whose default export is not a function), as phrases: the English is the message
 * the CLI prints and the model reads; the phrase beside it (`SerializedError.phrase`, with
 * `ns: 'sandbox'`) lets the UI translate it under `core.sandbox.<key>`. Values from the user's
 * code (tool names, keys) are parameters, shown as they are.
 */
import type { PhraseShape } from '../core/loop/events'
import { phrase, renderPhrase, type CatalogueKey, type Phrase, type PhraseParams } from '../core/util/phrase'

/** English templates (i18next syntax: `{{param}}`, `_one` / `_other` by `count`). */
export const SANDBOX_TEXT = {
  routeNotNames: 'route() must return an array of tool names, not {{type}}.',
  routeUnknown_one: 'route() returned an unknown tool name: {{names}}. Available tools: {{known}}.',
  routeUnknown_other: 'route() returned unknown tool names: {{names}}. Available tools: {{known}}.',
  noTools: '(none)',
  summaryNotString: 'summarize() must return a string, not {{type}}.',
  modelNotLoaded: 'model.ts is not loaded (it has no default export or failed to load).',
  modelExportNotFunction: 'The default export of model.ts must be a function of (ctx: ModelContext), not {{type}}.',
  modelNoFields: 'model.ts returned an object without "content" or "tool_calls"; return a string or an assistant message { content, tool_calls }.',
  modelNoFieldsHas: 'model.ts returned an object without "content" or "tool_calls" (it has: {{keys}}); return a string or an assistant message { content, tool_calls }.',
  modelNotOutput: 'model.ts must return a string or an assistant message { content, tool_calls }, not {{type}}.',
  // What a value is, after "not".
  typeNull: 'null',
  typeUndefined: 'undefined',
  typeArray: 'an array',
  typeObject: 'an object',
  typeString: 'a string',
  typeNumber: 'a number',
  typeBigint: 'a bigint',
  typeBoolean: 'a boolean',
  typeSymbol: 'a symbol',
  typeFunction: 'a function',
} as const satisfies Record<string, string>

/** A key of {@link SANDBOX_TEXT} without its plural suffix. */
export type SandboxTextKey = CatalogueKey<typeof SANDBOX_TEXT>

/** The sandbox's own finding as a serialisable error: its English `message` and the phrase that translates it. */
export function sandboxError(name: string, key: SandboxTextKey, params?: PhraseParams): { name: string; message: string; phrase: PhraseShape } {
  const said: Phrase = phrase(key, params)
  return { name, message: renderPhrase(said, SANDBOX_TEXT), phrase: { ns: 'sandbox', ...stored(said) } }
}

/** `p` as events store a phrase: nested phrases of this catalogue stored the same way. */
function stored(p: Phrase): PhraseShape {
  if (!p.params) return { key: p.key }
  const params = Object.fromEntries(Object.entries(p.params).map(([name, value]) => [name, typeof value !== 'object' ? value : 'english' in value ? value.english : { ns: 'sandbox', ...stored(value) }]))
  return { key: p.key, params }
}

/** What `value` is, as a phrase of {@link SANDBOX_TEXT} (`a number`, `an array`, `null`). */
export function typePhrase(value: unknown): Phrase {
  if (value === null) return phrase('typeNull')
  if (Array.isArray(value)) return phrase('typeArray')
  const kind = typeof value
  const key = ({ undefined: 'typeUndefined', object: 'typeObject', string: 'typeString', number: 'typeNumber', bigint: 'typeBigint', boolean: 'typeBoolean', symbol: 'typeSymbol', function: 'typeFunction' } as const)[kind]
  return phrase(key)
}

/** An error the sandbox throws about user code, with the phrase of its message (see {@link sandboxError}). */
export class SandboxFinding extends Error {
  readonly phrase: PhraseShape

  constructor(key: SandboxTextKey, params?: PhraseParams) {
    const said = sandboxError('Error', key, params)
    super(said.message)
    this.phrase = said.phrase
  }
}
