/**
 * What the stores tell the user (import outcomes), as phrases: a key of {@link STORE_TEXT} and
 * its parameters. The English `message` of an outcome is rendered from the same table, and the
 * UI translates the phrases (`core.store.<key>` in its resources; the English is this table).
 */
import { phrase, renderPhrase, type CatalogueKey, type Phrase, type PhraseParams } from '../core/util'

/** English templates (i18next syntax: `{{param}}`, `_one` / `_other` by `count`). */
export const STORE_TEXT = {
  /** A file that could not be read: the error is the reader's own (English) diagnosis. */
  fileError: '{{file}}: {{error}}',
  openedSession: 'Opened session {{file}} ({{count}} events).',
  loadedWorkspace: 'Loaded workspace {{file}}.',
  loadedTools: 'Loaded {{count}} tool schemas from {{file}}; replayed calls are now checked against them.',
  notToolstepFile: '{{file}}: not a Toolstep session, workspace or tools file.',
  importCancelled: 'Import of {{file}} cancelled; nothing was changed.',
  notInCapture: '{{file}}: a Toolstep file cannot be part of a recorded session.',
  imported_one: 'Imported {{n}} conversation from {{file}}.',
  imported_other: 'Imported {{n}} conversations from {{file}}.',
} as const satisfies Record<string, string>

/** A key of {@link STORE_TEXT} without its plural suffix. */
export type StoreTextKey = CatalogueKey<typeof STORE_TEXT>

/** A phrase of {@link STORE_TEXT}. */
export function storePhrase(key: StoreTextKey, params?: PhraseParams): Phrase {
  return phrase(key, params)
}

/** `phrases` in English, one per line. */
export function storeMessage(phrases: readonly Phrase[]): string {
  return phrases.map((p) => renderPhrase(p, STORE_TEXT)).join('\n')
}
