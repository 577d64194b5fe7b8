/**
 * Text that core hands to people, kept as data: a key of an English catalogue plus parameters.
 * The CLI renders it in English with {@link renderPhrase}; the UI looks the same key up in its
 * translations (the English catalogue is the UI's English too, so both say the same words).
 * Templates use i18next's syntax so the UI needs no conversion: `{{name}}` parameters, and a
 * key with `_one` / `_other` variants picked by the `count` parameter.
 */

/**
 * Parameters of a phrase: numbers and short strings (identifiers, names, formatted times), a
 * phrase of the same catalogue nested in this one (a JSON reader's diagnosis inside "the call to
 * x was cut off: …"), rendered first, or a phrase of another catalogue ({@link PhraseRef}).
 */
export type PhraseParams = Readonly<Record<string, string | number | Phrase | PhraseRef>>

/** One piece of text as a catalogue key and its parameters. */
export interface Phrase {
  key: string
  params?: PhraseParams
}

/** English templates by key. */
export type Catalogue = Readonly<Record<string, string>>

/** The keys of catalogue `C` as phrases name them: `key_one` / `key_other` both become `key`. */
export type CatalogueKey<C extends Catalogue> = keyof C extends infer K ? (K extends `${infer Base}_${'one' | 'other'}` ? Base : K) : never

/** A phrase; `params` omitted when empty. */
export function phrase(key: string, params?: PhraseParams): Phrase {
  return params ? { key, params } : { key }
}

/**
 * `phrase` in English from `catalogue`: `key_one` when `params.count` is 1 and `key_other` for
 * other counts (when those exist), else `key` (or `key_other` when there is no plain `key`); `{{name}}` replaced by the parameter (left as is
 * when missing), a nested phrase rendered from the same catalogue, and `{{name, lowerFirst}}`
 * with its first letter lower-cased (i18next's format syntax; the UI registers the same
 * formatter; `formats` adds others, by name). An unknown key renders as the key itself, so nothing
 * is silently blank. Linear in the template's length.
 */
export function renderPhrase(phrase: Phrase, catalogue: Catalogue, formats: Readonly<Record<string, (value: string) => string>> = {}): string {
  const params = phrase.params ?? {}
  const count = params.count
  const plural = typeof count === 'number' ? catalogue[`${phrase.key}_${count === 1 ? 'one' : 'other'}`] : undefined
  // A phrase without a count (made before its key had plural forms) reads in the plural.
  const template = plural ?? catalogue[phrase.key] ?? catalogue[`${phrase.key}_other`] ?? phrase.key
  let out = ''
  for (const part of compiled(template)) {
    if (typeof part === 'string') {
      out += part
      continue
    }
    const value = params[part.name]
    if (value === undefined) {
      out += part.whole
      continue
    }
    const text = typeof value !== 'object' ? String(value) : 'english' in value ? value.english : renderPhrase(value, catalogue, formats)
    const apply = part.format === undefined ? undefined : part.format === 'lowerFirst' ? lowerFirst : formats[part.format]
    out += apply ? apply(text) : text
  }
  return out
}

/** A `{{name}}` or `{{name, format}}` placeholder of a template, as written (`whole`) and parsed. */
interface Placeholder {
  whole: string
  name: string
  format: string | undefined
}

const PLACEHOLDER = /\{\{(\w+)(?:, *(\w+))?\}\}/g
/** Templates split once into text and placeholders: a parse error per character of hostile output renders thousands of messages. */
const compiledTemplates = new Map<string, ReadonlyArray<string | Placeholder>>()
/** Templates come from the catalogues; the bound only guards against keys made up at run time. */
const MAX_COMPILED = 4096

function compiled(template: string): ReadonlyArray<string | Placeholder> {
  const known = compiledTemplates.get(template)
  if (known) return known
  const parts: Array<string | Placeholder> = []
  let pos = 0
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (match.index > pos) parts.push(template.slice(pos, match.index))
    parts.push({ whole: match[0], name: match[1] ?? '', format: match[2] })
    pos = match.index + match[0].length
  }
  if (pos < template.length) parts.push(template.slice(pos))
  if (compiledTemplates.size >= MAX_COMPILED) compiledTemplates.clear()
  compiledTemplates.set(template, parts)
  return parts
}

/** `text` with its first character lower-cased (`Expected …` → `expected …` after a colon). */
export function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1)
}

/**
 * A phrase of another catalogue, as a parameter of a phrase (a reader's diagnosis inside "file:
 * error", say): `ns` names the catalogue (the UI reads the key under `core.<ns>.`), `english` is
 * the phrase already rendered, which {@link renderPhrase} puts in its place.
 */
export interface PhraseRef {
  ns: string
  key: string
  params?: PhraseParams
  english: string
}

/** `phrase` of `catalogue` (the UI's `core.<ns>`) as a {@link PhraseRef} parameter. */
export function phraseRef(ns: string, phrase: Phrase, catalogue: Catalogue): PhraseRef {
  return { ns, key: phrase.key, ...(phrase.params ? { params: phrase.params } : {}), english: renderPhrase(phrase, catalogue) }
}
