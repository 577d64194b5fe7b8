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

/** A string shown as is, or a {@link Phrase} translated at display. */
export type UiText = string | Phrase

/** `text` in `t`'s language. Parameters that are phrases themselves are translated first. */
export function translate(t: TFunction, text: UiText): string {
  if (typeof text === 'string') return text
  const params = Object.fromEntries(Object.entries(text.params ?? {}).map(([name, value]) => [name, isPhrase(value) ? translate(t, value) : value]))
  return t(text.key, params) as string
}

function isPhrase(value: unknown): value is Phrase {
  return typeof value === 'object' && value !== null && typeof (value as Phrase).key === 'string'
}
