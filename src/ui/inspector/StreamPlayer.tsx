import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CompletionAccumulator, type StreamChunk } from '../../core/endpoint'

/** The text shown after `count` chunks: content so far, then each tool call as `name(arguments…)`. */
function textAfter(chunks: readonly StreamChunk[], count: number): string {
  const accumulator = new CompletionAccumulator()
  for (const chunk of chunks.slice(0, count)) if (chunk.data.trim() !== '[DONE]') accumulator.add(chunk.data)
  const { content, refusal, toolCalls } = accumulator.result()
  return [content ?? refusal ?? '', ...toolCalls.map((call) => `${call.name}(${call.arguments})`)].filter((part) => part !== '').join('\n')
}

/** Longest pause replayed between two chunks, ms: a stalled server should not stall the replay. */
const MAX_GAP_MS = 1500

/**
 * *Play as stream*: replays the recorded chunks of a streamed response with the gaps they
 * arrived with (each capped at 1.5 s), building the text up as the user first saw it.
 */
export function StreamPlayer({ chunks, firstTokenMs, totalMs }: { chunks: readonly StreamChunk[]; firstTokenMs?: number | undefined; totalMs: number }) {
  const { t } = useTranslation()
  const [shown, setShown] = useState<number | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current)
  }, [])
  useEffect(() => {
    if (shown === null || shown >= chunks.length) return
    const gap = shown === 0 ? (chunks[0]?.atMs ?? 0) : (chunks[shown]?.atMs ?? 0) - (chunks[shown - 1]?.atMs ?? 0)
    timer.current = setTimeout(() => setShown(shown + 1), Math.min(MAX_GAP_MS, Math.max(0, gap)))
    return () => {
      if (timer.current) clearTimeout(timer.current)
    }
  }, [shown, chunks])
  return (
    <div className="mt-1 text-xs text-slate-600">
      <div className="flex items-center gap-2">
        <button data-testid="play-stream" className="rounded border border-sky-600 px-2 py-0.5 font-medium text-sky-700 hover:bg-sky-50" onClick={() => setShown(0)}>
          ▶ {t('inspectorParts.play')}
        </button>
        <span data-testid="stream-timing">
          {t('inspectorParts.streamTiming', { count: chunks.length, ttft: firstTokenMs !== undefined ? `${Math.round(firstTokenMs)} ms` : '–', total: `${Math.round(totalMs)} ms` })}
        </span>
      </div>
      {shown !== null && (
        <pre data-testid="stream-playback" data-done={shown >= chunks.length} className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap [overflow-wrap:anywhere] rounded border border-slate-200 bg-slate-50 p-2 font-mono">
          {textAfter(chunks, shown)}
          {shown < chunks.length ? <span className="animate-pulse">▍</span> : null}
        </pre>
      )}
    </div>
  )
}
