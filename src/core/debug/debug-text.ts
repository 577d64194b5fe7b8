/**
 * What the debugger tells people, as phrases: why an edit cannot be applied, and the cells of
 * the session diff that are Toolstep's words rather than the sessions' content. The English is
 * rendered from this table; the UI translates the same keys under `core.debug.<key>`. Values
 * from the sessions (tool names, results, event types) are parameters, shown as they are.
 */
import { phraseRef, type PhraseParams, type PhraseRef } from '../util/phrase'
import type { CatalogueKey } from '../util/phrase'

/** English templates (i18next syntax: `{{param}}`). */
export const DEBUG_TEXT = {
  // Edit and continue (edit.ts, store/fork-controller.ts).
  editNoEvent: 'No event {{seq}} in this session.',
  editNotOutput: 'Event {{seq}} is {{type}}, not a model output.',
  editUnchanged: 'The edit changes nothing.',
  editNotResult: 'Event {{seq}} is not the result of a tool call.',
  editWhileRunning: 'Wait for the run to pause or stop before editing.',
  editCodeFailed: 'The code could not be loaded: the run was not continued.',
  // Session diff cells (session-diff.ts).
  cellModelFailed: 'model failed: {{error}}',
  cellMalformed: 'malformed: {{errors}}',
  cellNoCall: '(no call)',
  cellResultError: '{{name}} → error: {{content}}',
} as const satisfies Record<string, string>

/** A key of {@link DEBUG_TEXT}. */
export type DebugTextKey = CatalogueKey<typeof DEBUG_TEXT>

/** A phrase of {@link DEBUG_TEXT} with its English. */
export function debugRef(key: DebugTextKey, params?: PhraseParams): PhraseRef {
  return phraseRef('debug', { key, ...(params ? { params } : {}) }, DEBUG_TEXT)
}
