import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LongText } from './LongText'
import { playbackDelays, readRecordedPrefix, type RecordedResponse as Recorded } from '../../core/trace'

/** Delay between chunks when the recording kept no timestamps, ms. */
const FALLBACK_DELAY_MS = 40

/**
 * A replayed turn's response exactly as the log recorded it: a stream's chunks (every field
 * the provider sent, known or not) or the body. *Play as stream* shows the chunks arriving,
 * at their recorded pace where the recording has timestamps, and the reply forming from them.
 */
export function RecordedResponse({ recorded }: { recorded: Recorded }) {
  const { t } = useTranslation()
  const chunks = recorded.chunks ?? []
  const streamed = chunks.length > 0
  const [shown, setShown] = useState<number | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const delays = useMemo(() => playbackDelays(recorded, FALLBACK_DELAY_MS), [recorded])
  const partial = useMemo(() => (shown === null ? undefined : readRecordedPrefix(recorded, shown)), [recorded, shown])

  useEffect(() => () => clearTimeout(timer.current), [])
  // A new turn's recording starts unplayed.
  useEffect(() => {
    clearTimeout(timer.current)
    setShown(null)
  }, [recorded])

  function play() {
    clearTimeout(timer.current)
    const step = (count: number) => {
      setShown(count)
      if (count < chunks.length) timer.current = setTimeout(() => step(count + 1), delays[count] ?? FALLBACK_DELAY_MS)
    }
    step(1)
  }

  const text = shown === null ? recorded.text : chunks.slice(0, shown).map((chunk) => chunk.text).join('')
  const timed = streamed && chunks.every((chunk) => typeof chunk.atMs === 'number')
  return (
    <div className="mt-2" data-testid="recorded-response" data-kind={recorded.kind} data-chunks={chunks.length}>
      <div className="mb-1 flex flex-wrap items-center gap-2 text-[11px] text-slate-500">
        <span className="font-semibold uppercase tracking-wide">
          {t('inspectorParts.recorded')} · {t(`inspectorParts.kind.${recorded.kind === 'sse' ? 'sse' : recorded.kind === 'jsonl' ? 'jsonl' : 'json'}`)}
          {streamed ? ` · ${t('inspectorParts.chunks', { count: chunks.length })}` : ''}
        </span>
        {streamed && (
          <button
            data-testid="recorded-play"
            className="rounded border border-sky-600 px-1.5 py-0.5 font-medium text-sky-700 hover:bg-sky-50"
            onClick={play}
            title={timed ? t('inspectorParts.playTimed') : t('inspectorParts.playUntimed', { ms: FALLBACK_DELAY_MS })}
          >
            ▶ {t('inspectorParts.play')}
          </button>
        )}
        {shown !== null && (
          <span data-testid="recorded-progress" className="tabular-nums">
            {t('inspectorParts.chunkOf', { shown, count: chunks.length })}
          </span>
        )}
      </div>
      {partial && (
        <div data-testid="recorded-partial" className="mb-1 rounded border border-sky-200 bg-sky-50 p-1.5 font-mono text-[11px] text-slate-800">
          {partial.content !== null && <LongText as="div" text={partial.content} className="whitespace-pre-wrap" />}
          {partial.calls.map((call, index) => (
            <div key={`${call.id}-${index}`} data-testid="recorded-partial-call" data-tool-name={call.name}>
              → {call.name}(<LongText as="div" text={call.arguments} className="inline whitespace-pre-wrap" />)
            </div>
          ))}
        </div>
      )}
      <LongText text={text} className="max-h-60 overflow-auto whitespace-pre-wrap [overflow-wrap:anywhere] rounded border border-slate-200 bg-slate-50 p-2 font-mono text-[11px] leading-relaxed text-slate-700" />
    </div>
  )
}
