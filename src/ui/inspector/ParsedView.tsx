import { useTranslation } from 'react-i18next'
import type { ParseResult } from '../../core/protocols'
import type { Highlight } from './RawOutput'
import { RepairList } from './RepairList'
import { WindowedList } from './WindowedList'
import { LongText } from './LongText'
import { ArgumentsBlock } from './ArgumentsText'
import { coreSaid } from '../i18n/core-text'

const highlightsByCalls = new WeakMap<ParseResult['calls'], Highlight[]>()

/**
 * The ranges of each call, its name and its arguments, for {@link RawOutput}. One array per list
 * of calls: a new one on every render made the raw output index 300 000 ranges again each time
 * a card of a 100 000-call turn was drawn.
 */
export function highlightsOf(calls: ParseResult['calls']): Highlight[] {
  let highlights = highlightsByCalls.get(calls)
  if (!highlights) highlightsByCalls.set(calls, (highlights = rangesOf(calls)))
  return highlights
}

function rangesOf(calls: ParseResult['calls']): Highlight[] {
  // A loop of same-shaped objects, not flatMap with spreads: for 100 000 calls that made ~500 000
  // temporary arrays and objects, ~100 ms with the garbage they left.
  const ranges: Highlight[] = []
  for (let call = 0; call < calls.length; call++) {
    const spans = calls[call]!.spans
    ranges.push({ start: spans.call.start, end: spans.call.end, kind: 'call', call })
    if (spans.name) ranges.push({ start: spans.name.start, end: spans.name.end, kind: 'name', call })
    if (spans.arguments) ranges.push({ start: spans.arguments.start, end: spans.arguments.end, kind: 'arguments', call })
  }
  return ranges
}

/** What a parse found: detection, each call with its arguments, the prose, repairs and errors. */
export function ParsedView({ result, noCallText }: { result: ParseResult; noCallText: string }) {
  const { t } = useTranslation()
  return (
    <div className="flex flex-col gap-1.5 text-xs">
      {result.detection && <Detection result={result} />}
      <WindowedList
        count={result.calls.length}
        className="flex flex-col gap-1.5"
        render={(i) => {
          const c = result.calls[i]!
          return (
        <div key={c.id ?? i} data-testid="parsed-call" data-tool-name={c.name} className="rounded border border-violet-200 bg-violet-50 p-1.5">
          {/* A tool name is never split: the call id goes under it when the column is narrow, and a name
              wider than the column scrolls in its own line. */}
          <div className="flex min-w-0 flex-wrap justify-between gap-x-2">
            <span data-testid="parsed-call-name" className="max-w-full overflow-x-auto whitespace-nowrap font-mono font-semibold text-violet-900">{c.name}</span>
            {c.id && (
              <span className="min-w-0 truncate font-mono text-slate-400" title={c.id}>
                {c.id}
              </span>
            )}
          </div>
          {c.argumentsError === undefined ? (
            <ArgumentsBlock testId="parsed-arguments" args={c.arguments} className="mt-0.5 whitespace-pre-wrap font-mono text-slate-700 [overflow-wrap:anywhere]" />
          ) : (
            <>
              <LongText text={c.rawArguments ?? ''} className="mt-0.5 whitespace-pre-wrap font-mono text-slate-700 [overflow-wrap:anywhere]" />
              <p data-testid="arguments-error" className="text-red-700">{t('unreadCall.problem', { problem: c.argumentsError })}</p>
            </>
          )}
        </div>
          )
        }}
      />
      {result.calls.length === 0 && result.errors.length === 0 && <p className="text-slate-600">{noCallText}</p>}
      {result.reasoning && (
        <details>
          <summary className="cursor-pointer font-semibold text-slate-500">{t('inspectorParts.reasoning')}</summary>
          <LongText as="p" testId="parse-reasoning" text={result.reasoning} className="whitespace-pre-wrap text-slate-500 italic [overflow-wrap:anywhere]" />
        </details>
      )}
      {result.text && (
        <div>
          <div className="font-semibold text-slate-500">{t('results.text')}</div>
          <LongText as="p" testId="parse-text" text={result.text} className="whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]" />
        </div>
      )}
      <RepairList repairs={result.repairs} />
      {result.errors.map((e, i) => {
        const said = coreSaid(t, 'parse', e)
        return (
          <p key={`e${i}`} data-testid="parse-error" className="rounded bg-red-50 px-1.5 py-0.5 text-red-700">
            <span className="font-mono">{e.code}</span>: <span lang={said.lang}>{said.text}</span>
          </p>
        )
      })}
    </div>
  )
}

/** Why this format was read: the fallback chain's steps, or auto-detection's reason (English when it has no phrase). */
function Detection({ result }: { result: ParseResult }) {
  const { t } = useTranslation()
  const said = coreSaid(t, 'parse', { message: result.detection ?? '', phrase: result.detectionPhrase })
  return (
    <p data-testid="parse-detection" className="text-slate-500">
      {t('parsePhrases.detected')} <span lang={said.lang}>{said.text}</span>
    </p>
  )
}
