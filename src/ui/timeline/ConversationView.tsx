import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { SessionEvent, Verdict } from '../../core/loop'
import { anomalyDetail, anomalyTooltip } from '../anomalies/AnomalyCatalogue'
import { coreDetail } from '../i18n/text'
import { highlightsOf } from '../inspector/ParsedView'
import { LongText } from '../inspector/LongText'
import { RawOutput } from '../inspector/RawOutput'
import { RepairList } from '../inspector/RepairList'
import { ArgumentsBlock, InlineArguments } from '../inspector/ArgumentsText'
import { coreSaid, verdictText } from '../i18n/core-text'
import { EditedNote } from '../debug/EditControls'
import { cardAtCursor, createConversationFold, type AssistantCard, type MessageCard, type ToolCard } from './conversation'
import { useMeasuredRows } from './use-measured-rows'

const ROLE_STYLE: Record<MessageCard['role'], string> = {
  user: 'border-l-sky-400',
  assistant: 'border-l-violet-400',
  tool: 'border-l-emerald-400',
}

/** Longest tool result shown in a card before it is clipped (the inspector shows it whole), chars. */
const RESULT_PREVIEW_CHARS = 1200

export interface ConversationViewProps {
  events: readonly SessionEvent[]
  cursor: number
  onSelect(index: number): void
}

/**
 * The session as a conversation: one card per message, those after the cursor dimmed. Each assistant card
 * shows the raw output with the recognised spans marked beside the calls parsed out of it;
 * each call shows its validation verdict and links to its tool-result card. Virtualised, with
 * measured card heights, so long replays stay smooth.
 */
export function ConversationView({ events, cursor, onSelect }: ConversationViewProps) {
  const { t } = useTranslation()
  // The whole log, for the cards after the cursor (shown dimmed, like future timeline rows) and
  // for where each card ends; the cards up to the cursor are the fold of events 0..cursor.
  // Both folds take in only the events new since their last call: the whole log as a live run
  // appends to it (a 100 000-call turn was folded again whole on every phase), the prefix as the
  // cursor moves forward.
  const [foldFull] = useState(createConversationFold)
  const [foldPrefix] = useState(createConversationFold)
  const full = useMemo(() => foldFull(events), [foldFull, events])
  // At the end of the log (a live run follows it) the prefix is the whole log: folded once, not twice.
  const model = useMemo(() => (cursor >= events.length - 1 ? full : foldPrefix(events.slice(0, cursor + 1))), [full, foldPrefix, events, cursor])
  const cards = useMemo(() => (model === full ? full.cards : [...model.cards, ...full.cards.slice(model.cards.length)]), [model, full])
  const shown = model.cards.length
  const current = cardAtCursor(model.cards, cursor)
  const parentRef = useRef<HTMLDivElement>(null)
  // Built on the first link followed, not on every cursor move: a turn of 100 000 calls has 100 000 cards.
  const indexOf = useMemo(() => {
    let index: Map<string, number> | undefined
    return (key: string) => (index ??= new Map(cards.map((c, i) => [c.key, i]))).get(key)
  }, [cards])
  // A call links to its result card even while the cursor is before it (the card is shown dimmed).
  const fullResults = useMemo(() => {
    const results = new Map<string, Record<string, string>>()
    for (const c of full.cards) if (c.role === 'assistant') results.set(c.key, c.results)
    return results
  }, [full])
  const virtualizer = useMeasuredRows(parentRef, {
    count: cards.length,
    // One function per log, not per cursor: the row offsets are rebuilt when these change, and
    // the cards at any cursor are those of the whole log, in the same order, with the same keys.
    estimate: useCallback((i: number) => (full.cards[i]?.role === 'assistant' ? 180 : 72), [full]),
    keyOf: useCallback((i: number) => full.cards[i]?.key ?? i, [full]),
    overscan: 6,
  })
  const { scrollToIndex } = virtualizer

  useEffect(() => {
    if (current >= 0) scrollToIndex(current)
  }, [current, scrollToIndex])

  /** The last event of card `i`: selecting a card shows it complete (an assistant card parsed and validated). */
  function endOf(i: number): number {
    const next = cards[i + 1]
    return next ? next.seq - 1 : events.length - 1
  }

  function goTo(key: string | undefined) {
    const i = key === undefined ? undefined : indexOf(key)
    if (i !== undefined) onSelect(endOf(i))
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1 }
    if (event.key in moves) {
      const next = Math.max(0, Math.min(cards.length - 1, current + (moves[event.key] ?? 0)))
      if (cards[next]) onSelect(endOf(next))
    } else if (event.key === 'Home') onSelect(0)
    else if (event.key === 'End') onSelect(events.length - 1)
    else return
    event.preventDefault()
  }

  if (events.length === 0) {
    return (
      <div data-testid="conversation" className="flex h-full items-center justify-center p-6 text-center text-sm text-slate-500">
        {t('conversation.empty')}
      </div>
    )
  }

  return (
    <div
      ref={parentRef}
      data-testid="conversation"
      role="list"
      aria-label={t('conversation.label')}
      tabIndex={0}
      onKeyDown={onKeyDown}
      className="h-full overflow-auto bg-slate-50 outline-none focus-visible:ring-2 focus-visible:ring-sky-400"
    >
      {model.system !== null && (
        <details className="mx-2 mt-2 rounded border border-slate-200 bg-white px-2 py-1 text-xs text-slate-600">
          <summary className="cursor-pointer font-semibold">{t('conversation.systemPrompt', { count: model.system.length })}</summary>
          <LongText content text={model.system} className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap font-mono text-[11px] [overflow-wrap:anywhere]" />
        </details>
      )}
      <div style={{ height: virtualizer.totalSize, position: 'relative' }}>
        {virtualizer.rows.map((row) => {
          const card = cards[row.index]!
          const isCurrent = row.index === current
          const future = row.index >= shown
          return (
            <div
              key={row.key}
              ref={virtualizer.measureElement}
              data-index={row.index}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.start}px)` }}
              className="px-2 py-1"
            >
              <article
                role="listitem"
                data-testid="message-card"
                data-role={card.role}
                data-seq={card.seq}
                data-future={future || undefined}
                aria-current={isCurrent ? 'step' : undefined}
                onClick={() => onSelect(endOf(row.index))}
                className={`cursor-pointer rounded-md border border-l-4 bg-white p-2 text-xs shadow-sm ${ROLE_STYLE[card.role]} ${
                  isCurrent ? 'border-sky-400 ring-2 ring-sky-300' : 'border-slate-200 hover:border-slate-300'
                } ${future ? 'opacity-50' : ''}`}
              >
                <header className="mb-1 flex flex-wrap items-baseline gap-x-2 font-semibold text-slate-600">
                  <span className="uppercase tracking-wide">{card.role}</span>
                  {card.role === 'assistant' && card.turn > 0 && <span className="font-normal text-slate-400">{t('conversation.turn', { turn: card.turn })}</span>}
                  {card.role === 'tool' && (
                    <span className="min-w-0 font-mono font-normal text-slate-500 [overflow-wrap:anywhere]">
                      {card.name} · tool_call_id {card.callId}
                    </span>
                  )}
                  <span className="ml-auto font-mono font-normal text-slate-400">{t('conversation.event', { seq: card.seq })}</span>
                </header>
                {card.anomalies.length > 0 && (
                  <ul className="mb-1 flex flex-col gap-0.5">
                    {card.anomalies.map((a, i) => (
                      <li key={i} data-testid="card-anomaly" data-code={a.code} title={anomalyTooltip(t, [a])} className="rounded bg-red-50 px-1.5 py-0.5 text-red-800 [overflow-wrap:anywhere]">
                        <span className="font-mono font-semibold">⚠ {a.code}</span> — <span lang={a.phrase ? undefined : 'en'}>{anomalyDetail(t, a)}</span>
                      </li>
                    ))}
                  </ul>
                )}
                {card.role === 'user' && <LongText as="p" content text={card.content} className="whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]" />}
                {card.role === 'assistant' && <AssistantBody card={card} results={fullResults.get(card.key) ?? card.results} goTo={goTo} />}
                {card.role === 'tool' && <ToolBody card={card} goTo={goTo} />}
              </article>
            </div>
          )
        })}
      </div>
      {model.stop && (
        <p data-testid="conversation-stop" className="mx-2 mb-2 rounded bg-slate-800 px-2 py-1 text-xs text-white">
          {t('conversation.stopped')} <span className="font-mono font-semibold">{model.stop.reason}</span>
          {model.stop.detail ? <span lang={model.stop.phrase ? undefined : 'en'}>{` — ${coreDetail(t, 'loop', { detail: model.stop.detail, phrase: model.stop.phrase })}`}</span> : ''}
        </p>
      )}
    </div>
  )
}

function AssistantBody({ card, results, goTo }: { card: AssistantCard; results: Record<string, string>; goTo(key: string | undefined): void }) {
  const { t } = useTranslation()
  if (card.raw === null) {
    // An assistant message from the log's history: no raw output to show, only the message.
    return (
      <div data-testid="card-parsed">
        {card.content && <LongText as="p" content text={card.content} className="whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]" />}
        {card.historyCalls?.map((c) => (
          <div key={c.id} className="font-mono text-slate-700 [overflow-wrap:anywhere]">
            → {c.name}(<InlineArguments args={c.arguments} />)
          </div>
        ))}
      </div>
    )
  }
  const parse = card.parse
  return (
    <div className="grid grid-cols-[repeat(auto-fit,minmax(min(14rem,100%),1fr))] gap-2">
      <div className="min-w-0">
        <div className="mb-0.5 text-[10px] font-semibold uppercase tracking-wide text-slate-400">{t('conversation.raw')}</div>
        <div data-testid="card-raw">
          {card.error !== undefined ? (
            <p className="rounded bg-red-50 px-1.5 py-1 text-red-700">{t('conversation.modelFailed')} <span lang="en">{card.error}</span></p>
          ) : (
            <RawOutput raw={card.raw} highlights={highlightsOf(parse?.calls ?? [])} testId="card-raw-text" />
          )}
          {card.edited && <EditedNote original={card.edited.original} />}
        </div>
      </div>
      <div data-testid="card-parsed" className="min-w-0">
        <div className="mb-0.5 text-[10px] font-semibold uppercase tracking-wide text-slate-400">{parse ? `${t('conversation.parsed')} · ${parse.protocol}` : t('conversation.parsed')}</div>
        {!parse ? (
          <p className="italic text-slate-400">{card.error !== undefined ? t('conversation.nothingToParse') : t('conversation.notParsed')}</p>
        ) : (
          <div className="flex flex-col gap-1">
            <CardCalls calls={parse.calls} render={(c) => <CallBox key={c.id} call={c} verdict={card.verdicts[c.id]} result={results[c.id]} goTo={goTo} />} />
            {parse.calls.length === 0 && parse.errors.length === 0 && <p className="text-slate-600">{t('conversation.noCall')}</p>}
            {parse.text && <LongText as="p" content text={parse.text} className="whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]" />}
            <RepairList repairs={parse.repairs} />
            {parse.errors.map((e, i) => {
              const said = coreSaid(t, 'parse', e)
              return (
                <p key={i} className="rounded bg-red-50 px-1.5 py-0.5 text-red-700">
                  <span className="font-mono">{e.code}</span>: <span lang={said.lang}>{said.text}</span>
                </p>
              )
            })}
          </div>
        )}
      </div>
    </div>
  )
}

type ParsedCall = NonNullable<AssistantCard['parse']>['calls'][number]

/** Calls of one turn shown as boxes in their card; more than this many are a windowed list inside the card. */
const CALLS_INLINE = 40

/** Height of a call box before it is measured, px. */
const callEstimate = () => 110

/**
 * The calls of one assistant turn. A turn of many calls (a parallel turn can have 100 000) is a
 * windowed list in a scroll box of bounded height: only the boxes in view are in the page and
 * measured, and the card keeps a height the outer list can place.
 */
function CardCalls({ calls, render }: { calls: readonly ParsedCall[]; render(call: ParsedCall): ReactNode }) {
  const { t } = useTranslation()
  const boxRef = useRef<HTMLDivElement>(null)
  const many = calls.length > CALLS_INLINE
  const virtualizer = useMeasuredRows(boxRef, {
    count: many ? calls.length : 0,
    estimate: callEstimate,
    keyOf: useCallback((i: number) => calls[i]?.id ?? i, [calls]),
    overscan: 4,
    // The box is at most max-h-96 (384 px) tall.
    fallbackHeight: 384,
  })
  if (!many) return <>{calls.map(render)}</>
  return (
    <div>
      <div className="mb-0.5 text-slate-500">{t('conversation.callCount', { formatted: calls.length.toLocaleString('en') })}</div>
      <div ref={boxRef} data-testid="card-calls-windowed" className="max-h-96 overflow-auto rounded border border-slate-200" onClick={(e) => e.stopPropagation()}>
        <div style={{ height: virtualizer.totalSize, position: 'relative' }}>
          {virtualizer.rows.map((row) => (
            <div key={row.key} ref={virtualizer.measureElement} data-index={row.index} style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.start}px)` }} className="p-0.5">
              {render(calls[row.index]!)}
            </div>
          ))}
        </div>
      </div>
    </div>
  )
}

/** One parsed call: name, id, arguments, its verdict and a link to its result card. */
function CallBox({ call: c, verdict, result, goTo }: { call: ParsedCall; verdict: Verdict | undefined; result: string | undefined; goTo(key: string | undefined): void }) {
  const { t } = useTranslation()
  return (
    <div data-testid="card-call" data-tool-name={c.name} className="rounded border border-violet-200 bg-violet-50 p-1.5">
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-mono font-semibold text-violet-900 [overflow-wrap:anywhere]">{c.name}</span>
        <span className="font-mono text-slate-400 [overflow-wrap:anywhere]">{c.id}</span>
      </div>
      <ArgumentsBlock args={c.arguments} className="mt-0.5 max-h-40 overflow-auto whitespace-pre-wrap font-mono text-slate-700 [overflow-wrap:anywhere]" />
      <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-0.5">
        {verdict ? (
          <span data-testid="card-verdict" data-ok={verdict.ok} className={verdict.ok ? 'text-emerald-700' : 'text-red-700'}>
            {verdict.ok ? (
              `✓ ${t('conversation.valid')}`
            ) : verdict.problems.length > 0 ? (
              <>
                ✗{' '}
                {verdict.problems.map((_, i) => {
                  const said = verdictText(t, verdict.problems, verdict.phrases?.problems, i)
  return (
                    <span key={`p${i}`} lang={said.lang}>
                      {i > 0 ? '; ' : ''}
                      {said.text}
                    </span>
                  )
                })}
              </>
            ) : (
              `✗ ${t('conversation.rejected')}`
            )}
            {verdict.warnings?.map((_, i, all) => {
              const said = verdictText(t, all, verdict.phrases?.warnings, i)
              return <span key={`w${i}`} lang={said.lang}>{` · ${said.text}`}</span>
            })}
            {verdict.coercions?.map((_, i, all) => (
              <span key={`c${i}`}>{` · ${t('conversation.coerced', { what: verdictText(t, all, verdict.phrases?.coercions, i).text })}`}</span>
            ))}
          </span>
        ) : (
          <span className="text-slate-400">{t('conversation.notValidated')}</span>
        )}
        {result && (
          <button
            data-testid="card-result-link"
            className="text-sky-700 underline"
            onClick={(e) => {
              e.stopPropagation()
              goTo(result)
            }}
          >
            {t('conversation.result')} ↓
          </button>
        )}
      </div>
    </div>
  )
}

function ToolBody({ card, goTo }: { card: ToolCard; goTo(key: string | undefined): void }) {
  const { t } = useTranslation()
  const clipped = card.content.length > RESULT_PREVIEW_CHARS
  return (
    <div>
      <pre className={`max-h-48 overflow-auto whitespace-pre-wrap font-mono [overflow-wrap:anywhere] ${card.isError ? 'text-red-700' : 'text-slate-800'}`}>
        {clipped ? `${card.content.slice(0, RESULT_PREVIEW_CHARS)}…` : card.content}
      </pre>
      {card.edited && <EditedNote original={card.edited.original} />}
      <div className="mt-0.5 flex gap-2 text-slate-500">
        {card.truncated && <span className="rounded bg-amber-100 px-1 text-amber-900">{t('conversation.truncated')}</span>}
        {clipped && <span>{t('conversation.clipped', { chars: card.content.length.toLocaleString('en') })}</span>}
        {card.from && (
          <button
            className="ml-auto text-sky-700 underline"
            onClick={(e) => {
              e.stopPropagation()
              goTo(card.from)
            }}
          >
            ↑ {t('conversation.call')}
          </button>
        )}
      </div>
    </div>
  )
}
