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
  openedSession_one: 'Opened session {{file}} ({{count}} event).',
  openedSession_other: 'Opened session {{file}} ({{count}} events).',
  loadedWorkspace: 'Loaded workspace {{file}}.',
  loadedTools_one: 'Loaded {{count}} tool schema from {{file}}; replayed calls are now checked against it.',
  loadedTools_other: 'Loaded {{count}} tool schemas from {{file}}; replayed calls are now checked against them.',
  notToolstepFile: '{{file}}: not a Toolstep session, workspace or tools file.',
  importCancelled: 'Import of {{file}} cancelled; nothing was changed.',
  notInCapture: '{{file}}: a Toolstep file cannot be part of a recorded session.',
  imported_one: 'Imported {{n}} conversation from {{file}}.',
  imported_other: 'Imported {{n}} conversations from {{file}}.',
  /** What stands for the files of a recorded session imported together, where a file name would be. */
  filesLabel: '{{n}} files',
  /** What a re-check runs against when the user drops the tools file they loaded, where a file name would be. */
  logOwnTools: 'the log’s own tool definitions',
  // Restoring what was kept over a reload (workspace-store.ts, run-controller.ts).
  restoreNotJson: 'The saved workspace is not valid JSON ({{error}}).',
  restoreNotFormat: 'The saved workspace is not in the format Toolstep writes.',
  restorePart: 'Part of the saved workspace could not be read: {{parts}}.',
  resetEverything: 'everything',
  resetInput: 'user input',
  resetExample: 'example',
  resetSettings: 'settings',
  resetCases: 'eval cases',
  runNotKept: 'This run was paused before the page was reloaded; its code was not kept, so it cannot go on. Run starts it again.',
  runNoLoad: 'This run was paused before the page was reloaded; its code does not load now, so it cannot go on. Run starts it again.',
  // Export → TypeScript loop / test (code-export.ts): an unexpected error is the exporter's own.
  exportError: '{{error}}',
  exportNoRun: 'Run the workspace first: the Vitest test replays the model outputs of a live run.',
  // Save as mock model (playground.ts).
  saveMockNoRun: 'Run the workspace first: Save as mock model records a live run.',
  // A run with the endpoint chosen but not set up (model-source-store.ts).
  endpointNoUrl: 'Set the endpoint URL (e.g. http://127.0.0.1:11434/v1) or choose the mock model.',
  endpointNoModel: 'Set the endpoint model name (e.g. qwen3:8b) or choose the mock model.',
  // Evals (eval-controller.ts): the code's own errors stay as they are.
  evalCodeErrors: '{{errors}}',
  evalSandboxFailed: 'The sandbox could not start: {{error}}',
} as const satisfies Record<string, string>

/** A key of {@link STORE_TEXT} without its plural suffix. */
export type StoreTextKey = CatalogueKey<typeof STORE_TEXT>

/** A phrase of {@link STORE_TEXT}. */
export function storePhrase(key: StoreTextKey, params?: PhraseParams): Phrase {
  return phrase(key, params)
}

/** The names `RestoreProblem.reset` uses for what is not a file, by their key of {@link STORE_TEXT}. */
export const RESET_NAMES: Readonly<Record<string, StoreTextKey>> = {
  everything: 'resetEverything',
  'user input': 'resetInput',
  example: 'resetExample',
  settings: 'resetSettings',
  'eval cases': 'resetCases',
}

/** `phrases` in English, one per line. */
export function storeMessage(phrases: readonly Phrase[]): string {
  return phrases.map((p) => renderPhrase(p, STORE_TEXT)).join('\n')
}

/** An Error whose message Toolstep wrote: the English, and the phrase of {@link STORE_TEXT} the UI translates. */
export class StoreError extends Error {
  override name = 'StoreError'
  constructor(readonly phrase: Phrase) {
    super(storeMessage([phrase]))
  }
}
