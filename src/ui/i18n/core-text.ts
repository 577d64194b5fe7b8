/**
 * The English of text that comes from outside the UI: timeline phrases (core/loop), wire-format
 * labels (core/protocols), anomaly catalogue entries (core/trace), example titles
 * (src/examples) and the stores' import outcomes (store/messages). Those modules keep their English as data (the CLI prints it); this module
 * gathers it under the `core` namespace of the UI's English resources, so there is one English
 * source, and zh-CN.json translates the same keys (`core.event.*`, `core.store.*`, `core.loop.*`
 * (stop details, warnings, fork diff cells), `core.trace.*` (anomaly details, import errors),
 * `core.debug.*` (edit refusals, compare cells), `core.protocol.<id>.*`, `core.anomaly.<code>.*`,
 * `core.example.<id>.*`, `core.export.*` (why a workspace cannot be exported), `core.sandbox.*` (what the sandbox says of the user's code), and what core says about what it read: `core.parse.*` repairs, parse
 * errors and detection, `core.validation.*` verdicts, `core.file.*` refused files). A unit test
 * checks every key is translated.
 */
import { EVENT_TEXT, LOOP_TEXT } from '../../core/loop'
import { protocols } from '../../core/protocols'
import { ANOMALY_CATALOGUE, DEBUG_TEXT, EXPORT_TEXT, FILE_TEXT, PARSE_TEXT, TRACE_TEXT, VALIDATION_TEXT } from '../../core/catalogue'
import { examples } from '../../examples/index'
import { STORE_TEXT } from '../../store/messages'
import { SANDBOX_TEXT } from '../../sandbox/sandbox-text'
import type { TFunction } from 'i18next'
import { corePhrase, translate, type CorePhrase } from './text'

/** The English `core` namespace, built from the modules that own the text. */
export function coreEnglish() {
  return {
    event: { ...EVENT_TEXT },
    store: { ...STORE_TEXT },
    protocol: Object.fromEntries(protocols.map((p) => [p.id, { label: p.label, description: p.description }])),
    anomaly: Object.fromEntries(ANOMALY_CATALOGUE.map((a) => [a.code, { title: a.title, explanation: a.explanation }])),
    example: Object.fromEntries(examples.map((e) => [e.id, { title: e.title, description: e.description }])),
    parse: { ...PARSE_TEXT },
    validation: { ...VALIDATION_TEXT },
    file: { ...FILE_TEXT },
    loop: { ...LOOP_TEXT },
    trace: { ...TRACE_TEXT },
    debug: { ...DEBUG_TEXT },
    export: { ...EXPORT_TEXT },
    sandbox: { ...SANDBOX_TEXT },
  }
}

type T = (key: string, options?: { defaultValue?: string }) => string

/** A wire format's label in `t`'s language (core's English when a key is missing). */
export function protocolLabel(t: T, protocol: { id: string; label: string }): string {
  return t(`core.protocol.${protocol.id}.label`, { defaultValue: protocol.label })
}

/** A wire format's one-line description in `t`'s language. */
export function protocolDescription(t: T, protocol: { id: string; description: string }): string {
  return t(`core.protocol.${protocol.id}.description`, { defaultValue: protocol.description })
}

/** An example's title in `t`'s language. */
export function exampleTitle(t: T, example: { id: string; title: string }): string {
  return t(`core.example.${example.id}.title`, { defaultValue: example.title })
}

/** An example's one-sentence description in `t`'s language. */
export function exampleDescription(t: T, example: { id: string; description: string }): string {
  return t(`core.example.${example.id}.description`, { defaultValue: example.description })
}

/** Something core said: its English, and (when core gave one) the phrase that translates it. */
export interface CoreSaid {
  message: string
  phrase?: CorePhrase | undefined
}

/**
 * What core said about what it read, in `t`'s language: the phrase of core's catalogue
 * `namespace` translated, or the English `message` when there is no phrase (files written before
 * phrases existed). `lang` is `en` for the English fallback, so a page in Chinese marks it.
 */
export function coreSaid(t: TFunction, namespace: 'parse' | 'validation' | 'file', said: CoreSaid): { text: string; lang?: 'en' } {
  return said.phrase ? { text: translate(t, corePhrase(namespace, said.phrase)) } : { text: said.message, lang: 'en' }
}

/** The `i`-th of `texts` (a verdict's problems, coercions or warnings) with its phrase from `phrases`, in `t`'s language. */
export function verdictText(t: TFunction, texts: readonly string[], phrases: readonly CorePhrase[] | undefined, i: number): { text: string; lang?: 'en' } {
  return coreSaid(t, 'validation', { message: texts[i] ?? '', phrase: phrases?.length === texts.length ? phrases[i] : undefined })
}
