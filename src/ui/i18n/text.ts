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
export type CoreNamespace = 'store' | 'event' | 'parse' | 'validation' | 'file' | 'loop' | 'trace' | 'debug' | 'export' | 'sandbox'

/** A phrase as core makes it (see core/util/phrase.ts): parameters may be phrases, of another catalogue when they carry `ns`. */
export interface CorePhrase {
  key: string
  /** The catalogue the phrase is of, when not the one it is read under (the sandbox's words in a code problem). */
  ns?: string
  params?: Readonly<Record<string, string | number | CorePhrase>>
}

/**
 * A phrase of core's catalogue `namespace` as UI text. Nested phrases are of the same catalogue,
 * unless they carry their own `ns` or their key names another (`file.notSession` nested in a
 * store phrase), whose own nested phrases are then of that one.
 */
export function corePhrase(namespace: string, p: CorePhrase): Phrase {
  const dot = p.key.indexOf('.')
  const ns = dot > 0 ? p.key.slice(0, dot) : (p.ns ?? namespace)
  const key = `core.${ns}.${dot > 0 ? p.key.slice(dot + 1) : p.key}`
  if (!p.params) return { key }
  const params = Object.fromEntries(Object.entries(p.params).map(([name, value]) => [name, typeof value === 'object' ? corePhrase(value.ns ?? ns, value) : value]))
  return { key, params }
}

/** A diff cell in `t`'s language: its lines, phrases among them translated; `text` as it is when there are none. */
export function cellText(t: TFunction, text: string, lines: readonly (string | (CorePhrase & { ns: string }))[] | undefined): string {
  return lines ? lines.map((line) => (typeof line === 'string' ? line : translate(t, corePhrase(line.ns, line)))).join('\n') : text
}

/**
 * A `detail` from core in `t`'s language: its phrase translated under `core.<namespace>.`, or
 * the English `detail` itself when there is no phrase (files written before phrases existed).
 */
export function coreDetail(t: TFunction, namespace: CoreNamespace, item: { detail: string; phrase?: CorePhrase | undefined }): string {
  if (!item.phrase) return item.detail
  const p = corePhrase(namespace, item.phrase)
  // A key this build does not know (a file from a newer Toolstep) shows the English.
  return translate(t, { key: p.key, params: { ...p.params, defaultValue: item.detail } })
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

/**
 * An imported conversation's label in `t`'s language: its phrase (`core.trace.label…`: "task 3 ·
 * trial 1", "… · 2 turns") translated, the log's own ids and names in it as they are; the label
 * itself when the log named the conversation.
 */
export function conversationLabel(t: TFunction, conversation: { label: string; labelPhrase?: CorePhrase | undefined }): string {
  return conversation.labelPhrase ? translate(t, corePhrase('trace', conversation.labelPhrase)) : conversation.label
}

/** A file's name as the stores keep it, in `t`'s language: what stands for several files (`4 files`, a STORE_TEXT phrase) translated, a real name as it is. */
export function fileLabel(t: TFunction, fileName: string, phrase: CorePhrase | null | undefined): string {
  return phrase ? translate(t, corePhrase('store', phrase)) : fileName
}
