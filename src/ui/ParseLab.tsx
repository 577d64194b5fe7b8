import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useParseLab } from './playground-context'
import { createStreamParser, getProtocol, protocols, type ParseResult, type StreamSnapshot } from '../core/protocols'
import { protocolDescription, protocolLabel } from './i18n/core-text'
import { ParsedView, highlightsOf } from './inspector/ParsedView'
import { RawOutput } from './inspector/RawOutput'
import { InlineArguments } from './inspector/ArgumentsText'

interface Playback {
  snapshot: StreamSnapshot
  /** Chars of the input shown so far. */
  shown: number
  done: boolean
}

/** The final reading as a snapshot: every call complete, nothing forming. */
function finalSnapshot(result: ParseResult, last: StreamSnapshot): StreamSnapshot {
  return { ...last, protocol: result.protocol, calls: result.calls.map((c) => ({ name: c.name, arguments: c.arguments, ...(c.id ? { id: c.id } : {}), complete: true })), forming: undefined, text: result.text }
}

/** A frozen copy of a snapshot (snapshots share structure with later pushes). */
function freeze(snapshot: StreamSnapshot): StreamSnapshot {
  return JSON.parse(JSON.stringify(snapshot)) as StreamSnapshot
}

/**
 * The parse stage on its own: paste any model output, pick a wire format (or `auto`), and see
 * what is recognised, what was repaired and what failed — or play it as a stream and watch the
 * calls form. Every format has a one-line description and an example to load with one click.
 */
export function ParseLab() {
  const { t } = useTranslation()
  const { protocolId, raw, setProtocol: setProtocolId, setRaw } = useParseLab((s) => s)
  const [chunkSize, setChunkSize] = useState(8)
  const [delayMs, setDelayMs] = useState(60)
  const [playback, setPlayback] = useState<Playback | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  const result = useMemo(() => (getProtocol(protocolId) ?? protocols[0]!).parse(raw), [protocolId, raw])
  const highlights = highlightsOf(result.calls)

  useEffect(() => () => clearTimeout(timer.current), [])

  function play() {
    clearTimeout(timer.current)
    const parser = createStreamParser(protocolId)
    let at = 0
    const tick = () => {
      const chunk = raw.slice(at, at + chunkSize)
      at += chunk.length
      const pushed = freeze(parser.push(chunk))
      const done = at >= raw.length
      // Snapshots may lag (formats read by re-parsing); the end is always the one-shot parse.
      const snapshot = done ? finalSnapshot(parser.end(), pushed) : pushed
      setPlayback({ snapshot, shown: at, done })
      if (!done) timer.current = setTimeout(tick, delayMs)
    }
    tick()
  }

  function stopPlayback() {
    clearTimeout(timer.current)
    setPlayback(null)
  }

  return (
    <div className="grid h-full min-h-0 grid-cols-1 lg:grid-cols-[minmax(240px,30%)_minmax(0,1fr)]">
      <aside aria-label={t('parseLab.formats')} data-testid="format-gallery" className="min-h-0 overflow-auto border-r border-slate-200 bg-white">
        <h2 className="sticky top-0 border-b border-slate-200 bg-white px-3 py-2 text-sm font-semibold">{t('parseLab.formatsCount', { count: protocols.length })}</h2>
        <ul>
          {protocols.map((p) => (
            <li key={p.id} className={`border-b border-slate-100 px-3 py-2 text-xs ${p.id === protocolId ? 'bg-sky-50' : ''}`}>
              <div className="flex items-center justify-between gap-2">
                <span className="font-medium text-slate-800">
                  {protocolLabel(t, p)} <span className="font-mono text-slate-400">{p.id}</span>
                </span>
                <button
                  data-testid={`load-example-${p.id}`}
                  className="shrink-0 rounded border border-slate-300 px-1.5 py-0.5 hover:bg-slate-50"
                  onClick={() => {
                    stopPlayback()
                    setRaw(p.example)
                    setProtocolId(p.id)
                  }}
                >
                  {t('parseLab.loadExample')}
                </button>
              </div>
              <p className="mt-0.5 text-slate-600">{protocolDescription(t, p)}</p>
            </li>
          ))}
        </ul>
      </aside>
      <section aria-label={t('parseLab.parse')} className="flex min-h-0 flex-col gap-2 overflow-auto p-3">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <label className="flex items-center gap-1">
            {t('parseLab.parseAs')}
            <select data-testid="parse-protocol-select" value={protocolId} onChange={(e) => setProtocolId(e.target.value)} className="rounded border border-slate-300 px-1.5 py-0.5">
              {protocols.map((p) => (
                <option key={p.id} value={p.id}>
                  {protocolLabel(t, p)}
                </option>
              ))}
            </select>
          </label>
          <span className="mx-1 h-5 w-px bg-slate-300" />
          <label className="flex items-center gap-1 text-xs" title={t('parseLab.chunkHint')}>
            {t('parseLab.chunk')}
            <input data-testid="stream-chunk" type="range" min={1} max={64} value={chunkSize} onChange={(e) => setChunkSize(Number(e.target.value))} />
            <span className="w-6 font-mono">{chunkSize}</span>
          </label>
          <label className="flex items-center gap-1 text-xs" title={t('parseLab.delayHint')}>
            {t('parseLab.delay')}
            <input data-testid="stream-delay" type="range" min={0} max={400} step={10} value={delayMs} onChange={(e) => setDelayMs(Number(e.target.value))} />
            <span className="w-12 font-mono">{delayMs} ms</span>
          </label>
          <button data-testid="stream-play" className="rounded-md border border-sky-700 bg-sky-600 px-2.5 py-1 text-sm font-medium text-white hover:bg-sky-700" onClick={play}>
            ▶ {t('parseLab.play')}
          </button>
          {playback && (
            <button className="rounded-md border border-slate-300 px-2.5 py-1 text-sm" onClick={stopPlayback}>
              {playback.done ? t('parseLab.closeStream') : `■ ${t('parseLab.stop')}`}
            </button>
          )}
        </div>
        <label className="flex flex-col gap-1 text-xs font-semibold uppercase tracking-wide text-slate-500">
          {t('inspector.raw')}
          <textarea
            data-testid="parse-input"
            value={raw}
            rows={6}
            spellCheck={false}
            onChange={(e) => {
              stopPlayback()
              setRaw(e.target.value)
            }}
            placeholder={t('parseLab.placeholder')}
            className="resize-y rounded border border-slate-300 p-2 font-mono text-xs font-normal normal-case tracking-normal text-slate-900"
          />
        </label>
        {playback ? <StreamView playback={playback} raw={raw} /> : null}
        <div data-testid="parse-result" className="grid grid-cols-1 gap-2 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <div>
            <h3 className="mb-1 text-[11px] font-semibold uppercase tracking-wide text-slate-500">{t('parseLab.recognised')}</h3>
            <RawOutput raw={raw} highlights={highlights} />
          </div>
          <div className="flex flex-col gap-1.5 text-xs">
            <h3 className="text-[11px] font-semibold uppercase tracking-wide text-slate-500">
              {t('inspector.parsed')} · <span className="font-mono normal-case">{result.protocol}</span>
            </h3>
            <ParsedView result={result} noCallText={t('parseLab.noCall')} />
          </div>
        </div>
      </section>
    </div>
  )
}

function StreamView({ playback, raw }: { playback: Playback; raw: string }) {
  const { t } = useTranslation()
  const { snapshot } = playback
  return (
    <div data-testid="stream-view" className="rounded-md border border-sky-300 bg-sky-50 p-2 text-xs">
      <div className="mb-1 flex justify-between text-slate-600">
        <span>
          {t('parseLab.streaming')} · {snapshot.protocol} · {t('parseLab.chars', { shown: playback.shown, total: raw.length })} · {snapshot.reading}
        </span>
        <span data-testid="stream-status">{playback.done ? t('parseLab.complete') : t('parseLab.receiving')}</span>
      </div>
      <pre className="max-h-32 overflow-auto whitespace-pre-wrap rounded bg-white p-1.5 font-mono text-slate-800 [overflow-wrap:anywhere]">
        {raw.slice(0, playback.shown)}
        {!playback.done && <span className="animate-pulse bg-sky-400">▌</span>}
      </pre>
      <ul className="mt-1 flex flex-col gap-1">
        {snapshot.calls.map((c, i) => (
          <li key={i} data-testid="stream-call" className="rounded border border-violet-200 bg-white px-1.5 py-1 font-mono">
            ✓ {c.name} <InlineArguments args={c.arguments} />
          </li>
        ))}
        {snapshot.forming && (
          <li data-testid="stream-forming" className="rounded border border-dashed border-violet-400 bg-white px-1.5 py-1 font-mono text-violet-800">
            … {snapshot.forming.name ?? t('parseLab.nameArriving')} <InlineArguments args={snapshot.forming.arguments} />
          </li>
        )}
      </ul>
    </div>
  )
}
