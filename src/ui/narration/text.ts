/**
 * Narration in the UI's language: the key and parameters from core's `narrate()`, looked up
 * under `narration.` in the i18next resources.
 */
import type { TFunction } from 'i18next'
import type { SessionEvent } from '../../core/loop'
import { narrate } from '../../core/narration'

/** The sentence for `events[index]` in `t`'s language, or `''` out of range. */
export function narrationText(t: TFunction, events: readonly SessionEvent[], index: number): string {
  const narration = narrate(events, index)
  if (!narration) return ''
  return t(`narration.${narration.key}`, narration.params).replace(/\s+$/, '')
}
