import { useTranslation } from 'react-i18next'
import { jsonOf } from '../../core/util'
import { LongText } from './LongText'
import { WINDOWED_CHARS } from './raw-pieces'

const prettyCache = new WeakMap<object, string>()

/**
 * A call's arguments as JSON text, pretty-printed or on one line. Remembered per arguments object
 * (the one-line text through `jsonOf`, shared with the tool batch and the next request): the same
 * call is drawn by several views and on every render, and printing 10 MB of arguments again each
 * time was a long task of its own.
 */
export function argumentsJson(args: unknown, pretty: boolean): string {
  if (typeof args !== 'object' || args === null) return JSON.stringify(args) ?? String(args)
  if (!pretty) return jsonOf(args)
  let text = prettyCache.get(args)
  if (text === undefined) prettyCache.set(args, (text = JSON.stringify(args, null, 2)))
  return text
}

/**
 * Arguments whose JSON is longer than this (characters) are drawn unindented: indenting 500 000
 * small objects cost the page ~300 ms and made ~1.5 million rows for the windowed view to lay out,
 * where the one-line text (printed once, shared with the message list) makes a few thousand.
 */
export const INDENT_LIMIT_CHARS = 1_000_000

/**
 * A call's arguments, pretty-printed, as a {@link LongText}: drawn whole while short, windowed
 * when longer than `WINDOWED_CHARS` (a 10 MB string argument), so laying out the page never
 * measures megabytes of text; over {@link INDENT_LIMIT_CHARS} they are shown unindented, and say
 * so. The arguments are kept whole: every row can be scrolled to.
 */
export function ArgumentsBlock({ args, className, testId }: { args: unknown; className: string; testId?: string }) {
  const { t } = useTranslation()
  const compact = argumentsJson(args, false)
  if (compact.length <= INDENT_LIMIT_CHARS) return <LongText text={argumentsJson(args, true)} className={className} {...(testId ? { testId } : {})} />
  return (
    <div data-testid="arguments-unindented">
      <p className="text-xs text-slate-500">{t('longText.unindented', { chars: compact.length.toLocaleString() })}</p>
      <LongText text={compact} className={className} {...(testId ? { testId } : {})} />
    </div>
  )
}

/**
 * A call's arguments on one line, inside a `name(…)` line of a message list. Short arguments are
 * drawn inline as before; longer ones as a windowed block under the name.
 */
export function InlineArguments({ args }: { args: unknown }) {
  const text = argumentsJson(args, false)
  if (text.length <= WINDOWED_CHARS) return <>{text}</>
  return <LongText as="div" testId="arguments-windowed" text={text} className="whitespace-pre-wrap font-mono [overflow-wrap:anywhere]" />
}
