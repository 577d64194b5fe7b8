/**
 * Text that core hands to people, kept as data: a key of an English catalogue plus parameters.
 * The CLI renders it in English with {@link renderPhrase}; the UI looks the same key up in its
 * translations (the English catalogue is the UI's English too, so both say the same words).
 * Templates use i18next's syntax so the UI needs no conversion: `{{name}}` parameters, and a
 * key with `_one` / `_other` variants picked by the `count` parameter.
 */

/** Parameters of a phrase: numbers and short strings (identifiers, names, formatted times), or a phrase of another catalogue. */
export type PhraseParams = Readonly<Record<string, string | number | PhraseRef>>

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
 * other counts (when those exist), else `key`; `{{name}}` replaced by the parameter (left as is
 * when missing). An unknown key renders as the key itself, so nothing is silently blank.
 * Linear in the template's length.
 */
export function renderPhrase(phrase: Phrase, catalogue: Catalogue): string {
  const params = phrase.params ?? {}
  const count = params.count
  const plural = typeof count === 'number' ? catalogue[`${phrase.key}_${count === 1 ? 'one' : 'other'}`] : undefined
  const template = plural ?? catalogue[phrase.key] ?? phrase.key
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    if (!(name in params)) return whole
    const value = params[name]
    return typeof value === 'object' ? value.english : String(value)
  })
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
