import type { TFunction } from 'i18next'
import { renderSummary, summarizeEvent, type EventSummary, type SessionEvent } from '../../core/loop'
import { corePhrase, translate } from '../i18n/text'

/**
 * The timeline row of `event` in `t`'s language. Phrases nested in a row's phrase (the first
 * call names and "… and N more" of a big turn) are translated too, never shown as an object.
 */
export function rowSummary(t: TFunction, event: SessionEvent): EventSummary {
  return renderSummary(summarizeEvent(event), (p) => translate(t, corePhrase('event', p)))
}
