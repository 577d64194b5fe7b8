/**
 * Why a workspace cannot be exported, as phrases: the English `ExportError` message (what the
 * CLI prints) is rendered from this table, and the UI translates the same keys under
 * `core.export.<key>`. Module names, identifiers and code stay verbatim as parameters.
 */
import { phrase, renderPhrase, type CatalogueKey, type Phrase, type PhraseParams } from '../util/phrase'

/** English templates (i18next syntax: `{{param}}`, `_one` / `_other` by `count`). */
export const EXPORT_TEXT = {
  foreignImport: 'tools.ts imports "{{from}}": an exported loop can only use zod and the toolstep authoring API (tool, z).',
  namespaceImport: "tools.ts imports toolstep as \"{{name}}\": import its names instead, e.g. import { tool, z } from 'toolstep'.",
  otherName: 'tools.ts imports "{{name}}" from toolstep; an exported loop provides only tool and z. Write the helper in tools.ts instead.',
  bareImport: 'tools.ts imports "{{from}}" for its side effects: an exported loop can only use zod.',
  reserved_one: 'tools.ts declares {{names}}, which the exported loop uses for its own code. Rename it in tools.ts to export.',
  reserved_other: 'tools.ts declares {{names}}, which the exported loop uses for its own code. Rename them in tools.ts to export.',
  noPart: 'The export bundle has no "{{name}}" part; rebuild Toolstep.',
  noOutput: 'This session has no model output to record: run the workspace first.',
} as const satisfies Record<string, string>

/** A key of {@link EXPORT_TEXT} without its plural suffix. */
export type ExportTextKey = CatalogueKey<typeof EXPORT_TEXT>

/** A phrase of {@link EXPORT_TEXT}. */
export function exportPhrase(key: ExportTextKey, params?: PhraseParams): Phrase {
  return phrase(key, params)
}

/** `p` (a phrase of {@link EXPORT_TEXT}) in English. */
export function exportEnglish(p: Phrase): string {
  return renderPhrase(p, EXPORT_TEXT)
}
