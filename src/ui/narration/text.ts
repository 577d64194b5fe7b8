/**
 * Narration in the UI's language: the key and parameters from core's `narrate()`, looked up
 * under `narration.` in the i18next resources.
 */
import type { TFunction } from 'i18next'
import type { SessionEvent } from '../../core/loop'
import { narrate } from '../../core/narration'
import { corePhrase, translate } from '../i18n/text'

/** Longest phrased detail said in a sentence (as core shortens English ones). */
const MAX_DETAIL_CHARS = 120

/**
 * A detail's own closing full stop where the sentence around it puts one too ("…。。", ".。"):
 * the sentence's stays. An ellipsis ("...") is left as it is.
 */
function oneFullStop(sentence: string): string {
  return sentence.replace(/(?<!\.)[.。]([.。])(?!\.)/g, '$1')
}

/** The sentence for `events[index]` in `t`'s language, or `''` out of range. */
export function narrationText(t: TFunction, events: readonly SessionEvent[], index: number): string {
  const narration = narrate(events, index)
  if (!narration) return ''
  // A detail core phrased (a validation problem, a parse error, a stop detail) in `t`'s language, shortened.
  const params = Object.fromEntries(
    Object.entries(narration.params).map(([name, value]) => {
      if (typeof value !== 'object') return [name, value]
      const p = corePhrase(value.ns, value.phrase)
      const text = translate(t, { key: p.key, params: { ...p.params, defaultValue: value.english } }).replace(/\s+/g, ' ').trim()
      return [name, text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS - 1)}…` : text]
    }),
  )
  return oneFullStop(t(`narration.${narration.key}`, params).replace(/\s+$/, ''))
}
