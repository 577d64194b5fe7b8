/**
 * What the loop itself says about a run, as phrases: why it stopped (`loop.stopped`'s
 * `detail`), the warnings a step raises, and the fork diff's cells. Events keep the English
 * (`detail`, which the CLI prints and old session files have) and the phrase beside it
 * (`phrase`), which the UI translates under `core.loop.<key>`. Values from the run (tool names,
 * provider errors, parser diagnostics) are parameters, shown as they are.
 */
import type { PhraseShape } from './events'
import { phrase, phraseRef, renderPhrase, type CatalogueKey, type Phrase, type PhraseParams, type PhraseRef } from '../util/phrase'

/** English templates (i18next syntax: `{{param}}`, `_one` / `_other` by `count`). */
export const LOOP_TEXT = {
  // Stop details.
  modelFailed: 'The model failed to respond.',
  nothingToParse: 'Nothing to parse.',
  malformedAfterRetries_one: 'The output still held a malformed call after {{count}} correction: {{error}}',
  malformedAfterRetries_other: 'The output still held a malformed call after {{count}} corrections: {{error}}',
  repeatedCallStop: '"{{name}}" was called {{times}} times in a row with the same arguments.',
  maxStepsFinalTurn_one: 'Stopped after {{steps}} model turn; the last turn was asked without tools.',
  maxStepsFinalTurn_other: 'Stopped after {{steps}} model turns; the last turn was asked without tools.',
  malformedAsAnswer: 'The malformed output was taken as the final answer.',
  maxSteps_one: 'Stopped after {{steps}} model turn without a final answer.',
  maxSteps_other: 'Stopped after {{steps}} model turns without a final answer.',
  logProviderError: 'provider error: {{error}}',
  logNoAssistant: 'the log has no assistant turn',
  logEndsAfterCalls_one: 'the log ends after the call to {{names}}, without a final answer',
  logEndsAfterCalls_other: 'the log ends after the calls to {{names}}, without a final answer',
  stoppedByUser: 'Stopped by the user.',
  stoppedByUserReceived: 'Stopped by the user. Received so far: {{received}}',
  // Warnings.
  repeatedCallWarning: '"{{name}}" called {{times}} times in a row with the same arguments.',
  // Fork diff cells.
  cellModelFailed: 'model failed: {{error}}',
  cellNoText: '(no text)',
  cellMalformed: 'malformed: {{errors}}',
  cellNoCall: '(no call)',
} as const satisfies Record<string, string>

/** A key of {@link LOOP_TEXT} without its plural suffix. */
export type LoopTextKey = CatalogueKey<typeof LOOP_TEXT>

/** A phrase of {@link LOOP_TEXT}. */
export interface LoopPhrase extends Phrase {
  key: LoopTextKey
}

/** A phrase of {@link LOOP_TEXT}; `params` omitted when empty. */
export function loopPhrase(key: LoopTextKey, params?: PhraseParams): LoopPhrase {
  return phrase(key, params) as LoopPhrase
}

/** A phrase of {@link LOOP_TEXT} with its English, as a parameter or a diff cell's line. */
export function loopRef(key: LoopTextKey, params?: PhraseParams): PhraseRef {
  return phraseRef('loop', phrase(key, params), LOOP_TEXT)
}

/** `p` in English. */
export function loopEnglish(p: Phrase): string {
  return renderPhrase(p, LOOP_TEXT)
}

/**
 * A phrase as an event stores it (`phraseSchema`): plain parameters, and parameters that are
 * phrases (of the same catalogue, or of another with `ns`) stored the same way, without the
 * English a reference carries (the event's `detail` already has it). Linear in the phrase's size.
 */
export function storedPhrase(p: Phrase | PhraseRef): StoredPhrase {
  const ns = 'ns' in p ? { ns: p.ns } : {}
  if (!p.params) return { ...ns, key: p.key }
  const params = Object.fromEntries(Object.entries(p.params).map(([name, value]) => [name, typeof value !== 'object' ? value : storedPhrase(value)]))
  return { ...ns, key: p.key, params }
}

/** The shape of `phraseSchema` in events.ts. */
export type StoredPhrase = PhraseShape
