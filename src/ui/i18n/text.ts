/**
 * Text that code outside React components hands to the UI (toasts, dialogs, store outcomes):
 * either a ready string (file names, errors from parsers) or a translation key with its
 * parameters, translated where it is shown, so it follows a language switch.
 */
import type { TFunction } from 'i18next'

/** A translation key under the UI resources and its parameters. */
export interface Phrase {
  key: string
  params?: Record<string, unknown>
}

/** A string shown as is, a {@link Phrase} translated at display, or several phrases (one per line). */
export type UiText = string | Phrase | readonly Phrase[]

/**
 * Phrases from core or a store (keys of their English tables) as UI text: the UI's resources
 * hold them under `core.<namespace>.` (see core-text.ts).
 */
export function coreText(namespace: CoreNamespace, phrases: readonly CorePhrase[]): readonly Phrase[] {
  return phrases.map((p) => corePhrase(namespace, p))
}

/** The catalogues of core and the stores, as the UI's resources name them (`core.<namespace>`). */
export type CoreNamespace = 'store' | 'event' | 'parse' | 'validation' | 'file'

/**
 * A phrase of core's catalogue `namespace` as UI text. Nested phrases are of the same catalogue,
 * unless their key names another (`file.notSession` nested in a store phrase), whose own nested
 * phrases are then of that one.
 */
export function corePhrase(namespace: CoreNamespace, p: CorePhrase): Phrase {
  const dot = p.key.indexOf('.')
  const ns = dot > 0 ? p.key.slice(0, dot) : namespace
  const key = `core.${ns}.${dot > 0 ? p.key.slice(dot + 1) : p.key}`
  if (!p.params) return { key }
  const params = Object.fromEntries(Object.entries(p.params).map(([name, value]) => [name, typeof value === 'object' ? corePhrase(ns as CoreNamespace, value) : value]))
  return { key, params }
}

/** A phrase as core makes it (see core/util/phrase.ts). */
export interface CorePhrase {
  key: string
  params?: Readonly<Record<string, string | number | CorePhrase>>
}

/** `text` in `t`'s language. Parameters that are phrases themselves are translated first. */
export function translate(t: TFunction, text: UiText): string {
  if (typeof text === 'string') return text
  if (isPhraseList(text)) return text.map((p) => translate(t, p)).join('\n')
  const params = Object.fromEntries(Object.entries(text.params ?? {}).map(([name, value]) => [name, isPhrase(value) ? translate(t, value) : value]))
  return t(text.key, params) as string
}

function isPhraseList(text: UiText): text is readonly Phrase[] {
  return Array.isArray(text)
}

function isPhrase(value: unknown): value is Phrase {
  return typeof value === 'object' && value !== null && typeof (value as Phrase).key === 'string'
}
