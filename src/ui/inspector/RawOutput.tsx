import type { Span } from '../../core/protocols'

export interface Highlight extends Span {
  kind: 'call' | 'name' | 'arguments'
  /** Index of the call the range belongs to. */
  call: number
}

const KIND_STYLE: Record<Highlight['kind'], string> = {
  call: 'bg-violet-100',
  name: 'bg-violet-300 text-violet-950 font-semibold',
  arguments: 'bg-amber-100',
}

/**
 * The model's raw output with the recognised ranges marked: the whole call, its name
 * and its arguments. Ranges are UTF-16 offsets, as JavaScript strings index.
 */
export function RawOutput({ raw, highlights, testId = 'raw-output' }: { raw: string; highlights: readonly Highlight[]; testId?: string }) {
  const cuts = new Set<number>([0, raw.length])
  for (const h of highlights) {
    cuts.add(Math.max(0, Math.min(raw.length, h.start)))
    cuts.add(Math.max(0, Math.min(raw.length, h.end)))
  }
  const points = [...cuts].sort((a, b) => a - b)
  const pieces = points.slice(0, -1).map((start, i) => {
    const end = points[i + 1]!
    // The innermost range wins: name/arguments over the call around them.
    const covering = highlights.filter((h) => h.start <= start && h.end >= end && h.end > h.start)
    const top = covering.find((h) => h.kind !== 'call') ?? covering[0]
    return { start, end, top }
  })
  return (
    <pre data-testid={testId} className="max-h-80 overflow-auto whitespace-pre-wrap [overflow-wrap:anywhere] rounded border border-slate-200 bg-white p-2 font-mono text-xs leading-relaxed text-slate-800">
      {raw.length === 0 ? <span className="italic text-slate-400">(empty output)</span> : null}
      {pieces.map((p) =>
        p.top ? (
          <mark key={p.start} data-kind={p.top.kind} data-call={p.top.call} className={`rounded-sm ${KIND_STYLE[p.top.kind]}`}>
            {raw.slice(p.start, p.end)}
          </mark>
        ) : (
          <span key={p.start}>{raw.slice(p.start, p.end)}</span>
        ),
      )}
    </pre>
  )
}
