import { useVirtualizer } from '@tanstack/react-virtual'
import { usePlayground, useReplay } from '../playground-context'
import type { ConversationSummary } from '../../store/replay-store'
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { describeAnomaly } from '../../core/catalogue'
import { anomalyTitle } from '../anomalies/AnomalyCatalogue'
import { useRootFontPx } from '../layout/use-root-font'
import { conversationLabel } from '../i18n/text'

/** A row's height in rem (3.5rem is 56 px at 100 %), so it grows with the text size. */
const ROW_REM = 3.5
/** Wait this long after the last keystroke before asking the worker to search. */
const SEARCH_DELAY_MS = 150

/** Counts of each value across the conversations, most frequent first, for a filter's options. */
function tally(conversations: readonly ConversationSummary[], values: (conversation: ConversationSummary) => readonly string[]): [string, number][] {
  const counts = new Map<string, number>()
  for (const conversation of conversations) for (const value of values(conversation)) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
}

const select = 'min-w-0 flex-1 rounded border border-slate-300 bg-white px-1 py-0.5 text-xs text-slate-700'

/**
 * The imported log's conversations: searchable (text, tool names and anomaly codes, searched in
 * the import worker), filterable by anomaly and tool, virtualised for tens of thousands of
 * entries. Arrow keys move through the list and open each conversation as they go.
 */
export function ConversationList() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const n = (count: number) => count.toLocaleString('en')
  const conversations = useReplay((s) => s.conversations)
  const selected = useReplay((s) => s.selected)
  const [collapsed, setCollapsed] = useState(() => typeof window !== 'undefined' && window.innerWidth < 1280)
  const [query, setQuery] = useState('')
  const [matches, setMatches] = useState<ReadonlySet<number> | null>(null)
  const [searching, setSearching] = useState(false)
  const [anomaliesOnly, setAnomaliesOnly] = useState(false)
  const [code, setCode] = useState('')
  const [tool, setTool] = useState('')
  const listRef = useRef<HTMLDivElement>(null)
  const searchRef = useRef<HTMLInputElement>(null)

  // Newer searches supersede older ones: only the reply to the latest query is applied.
  useEffect(() => {
    const text = query.trim()
    if (text === '') {
      setMatches(null)
      setSearching(false)
      return
    }
    let current = true
    setSearching(true)
    const timer = setTimeout(() => {
      void pg.searchConversations(text).then((indexes) => {
        if (!current) return
        setMatches(indexes ? new Set(indexes) : null)
        setSearching(false)
      })
    }, SEARCH_DELAY_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [query, conversations])

  const codes = useMemo(() => tally(conversations, (c) => c.anomalyCodes), [conversations])
  const tools = useMemo(() => tally(conversations, (c) => c.tools), [conversations])
  const withAnomalies = useMemo(() => conversations.reduce((n, c) => n + (c.anomalyCount > 0 ? 1 : 0), 0), [conversations])
  const filtered = useMemo(
    () =>
      conversations.filter(
        (c) =>
          (!anomaliesOnly || c.anomalyCount > 0) &&
          (code === '' || c.anomalyCodes.includes(code)) &&
          (tool === '' || c.tools.includes(tool)) &&
          (matches === null || matches.has(c.index)),
      ),
    [conversations, anomaliesOnly, code, tool, matches],
  )
  const position = filtered.findIndex((c) => c.index === selected)

  const rowHeight = ROW_REM * useRootFontPx()
  const virtualizer = useVirtualizer({
    count: filtered.length,
    getScrollElement: () => listRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
  })
  // The sizes already laid out were estimated at the previous text size.
  useEffect(() => {
    virtualizer.measure()
  }, [rowHeight, virtualizer])

  useEffect(() => {
    if (position >= 0) virtualizer.scrollToIndex(position, { align: 'auto' })
  }, [position, virtualizer])

  function onListKey(event: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 }
    let next: number
    if (event.key in moves) next = position < 0 ? 0 : position + (moves[event.key] ?? 0)
    else if (event.key === 'Home') next = 0
    else if (event.key === 'End') next = filtered.length - 1
    else return
    event.preventDefault()
    const target = filtered[Math.max(0, Math.min(filtered.length - 1, next))]
    if (target) void pg.openConversation(target.index)
  }

  if (collapsed) {
    return (
      <div className="flex h-full w-9 flex-col items-center border-r border-slate-200 bg-slate-50 py-2">
        <button
          data-testid="conversation-list-toggle"
          aria-expanded={false}
          title={t('conversationList.show')}
          onClick={() => setCollapsed(false)}
          className="flex flex-col items-center gap-2 rounded px-1 py-2 text-xs text-slate-600 hover:bg-slate-200"
        >
          <span aria-hidden>»</span>
          <span className="[writing-mode:vertical-rl]">{t('conversationList.title')} · {n(conversations.length)}</span>
        </button>
      </div>
    )
  }

  const filtering = anomaliesOnly || code !== '' || tool !== '' || query.trim() !== ''
  return (
    <section aria-label={t('conversationList.title')} className="flex h-full w-64 flex-col border-r border-slate-200 bg-slate-50 xl:w-72">
      <div className="flex flex-col gap-1.5 border-b border-slate-200 p-2">
        <div className="flex items-center justify-between">
          <h2 className="text-[11px] font-semibold uppercase tracking-wide text-slate-500">
            {t('conversationList.title')} <span className="font-normal normal-case tracking-normal text-slate-400">· {conversations.length.toLocaleString('en')}</span>
          </h2>
          <button
            data-testid="conversation-list-toggle"
            aria-expanded
            title={t('conversationList.hide')}
            onClick={() => setCollapsed(true)}
            className="rounded px-1.5 text-slate-500 hover:bg-slate-200 hover:text-slate-800"
          >
            «
          </button>
        </div>
        <input
          ref={searchRef}
          data-testid="conversation-search"
          type="search"
          value={query}
          placeholder={t('conversationList.searchPlaceholder')}
          aria-label={t('conversationList.search')}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'Enter') {
              e.preventDefault()
              listRef.current?.focus()
              if (position < 0 && filtered[0]) void pg.openConversation(filtered[0].index)
            }
          }}
          className="w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm placeholder:text-slate-400 focus:border-sky-500 focus:outline-none focus:ring-1 focus:ring-sky-500"
        />
        <div className="flex items-center gap-1">
          <label className="flex shrink-0 items-center gap-1 text-xs text-slate-600" title={t('conversationList.withAnomalies', { count: withAnomalies, n: n(withAnomalies) })}>
            <input data-testid="filter-has-anomalies" type="checkbox" checked={anomaliesOnly} onChange={(e) => setAnomaliesOnly(e.target.checked)} />
            {t('conversationList.anomalies')}
          </label>
          <select data-testid="filter-anomaly-code" aria-label={t('conversationList.filterCode')} value={code} onChange={(e) => setCode(e.target.value)} className={select}>
            <option value="">{t('conversationList.anyCode')}</option>
            {codes.map(([value, count]) => (
              <option key={value} value={value} title={describeAnomaly(value) ? anomalyTitle(t, value) : undefined}>
                {value} ({count.toLocaleString('en')})
              </option>
            ))}
          </select>
        </div>
        <select data-testid="filter-tool" aria-label={t('conversationList.filterTool')} value={tool} onChange={(e) => setTool(e.target.value)} className={select}>
          <option value="">{t('conversationList.anyTool')}</option>
          {tools.map(([value, count]) => (
            <option key={value} value={value}>
              {value} ({count.toLocaleString('en')})
            </option>
          ))}
        </select>
        <div className="flex items-center justify-between text-xs text-slate-500" aria-live="polite">
          <span data-testid="conversation-count">
            {searching ? t('conversationList.searching') : filtering ? t('conversationList.filtered', { shown: n(filtered.length), total: n(conversations.length) }) : t('conversationList.count', { count: conversations.length, n: n(conversations.length) })}
          </span>
          {filtering && (
            <button
              className="text-sky-700 hover:underline"
              onClick={() => {
                setQuery('')
                setAnomaliesOnly(false)
                setCode('')
                setTool('')
              }}
            >
              {t('conversationList.clear')}
            </button>
          )}
        </div>
      </div>
      {filtered.length === 0 ? (
        <p className="p-3 text-sm text-slate-500">{searching ? t('conversationList.searching') : t('conversationList.noMatch')}</p>
      ) : (
        <div
          ref={listRef}
          data-testid="conversation-list"
          role="listbox"
          aria-label={t('conversationList.title')}
          aria-activedescendant={position >= 0 ? `conversation-${filtered[position]!.index}` : undefined}
          tabIndex={0}
          onKeyDown={onListKey}
          className="min-h-0 flex-1 overflow-auto outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-sky-400"
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((row) => {
              const conversation = filtered[row.index]!
              const open = conversation.index === selected
              return (
                <div
                  key={row.key}
                  id={`conversation-${conversation.index}`}
                  data-testid="conversation-item"
                  data-index={conversation.index}
                  role="option"
                  aria-selected={open}
                  aria-current={open ? 'true' : undefined}
                  onClick={() => void pg.openConversation(conversation.index)}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: rowHeight, transform: `translateY(${row.start}px)` }}
                  className={`flex cursor-pointer flex-col justify-center gap-0.5 border-b border-slate-200/70 px-2 text-sm ${
                    open ? 'border-l-4 border-l-sky-500 bg-white' : 'border-l-4 border-l-transparent hover:bg-white'
                  }`}
                >
                  <div className="flex min-w-0 items-baseline gap-1.5">
                    <span className="shrink-0 font-mono text-[11px] text-slate-400">{conversation.index + 1}</span>
                    <span data-content className={`min-w-0 flex-1 truncate ${open ? 'font-semibold text-slate-900' : 'text-slate-800'}`} title={conversationLabel(t, conversation)}>
                      {conversationLabel(t, conversation)}
                    </span>
                    <span className="shrink-0 text-[11px] tabular-nums text-slate-500" title={t('conversationList.messages', { count: conversation.messageCount })}>
                      {t('conversationList.msg', { count: conversation.messageCount })}
                    </span>
                  </div>
                  <div className="flex min-w-0 items-center gap-1 overflow-hidden text-[10px] leading-4">
                    {conversation.anomalyCount === 0 ? (
                      <span className="truncate text-slate-400" title={conversation.tools.join(', ')}>
                        {conversation.tools.length === 0 ? t('conversationList.noCalls') : conversation.tools.join(' · ')}
                      </span>
                    ) : (
                      <>
                        <span className="flex min-w-0 flex-1 gap-1 overflow-hidden">
                          {conversation.anomalyCodes.map((value) => (
                            <span
                              key={value}
                              data-testid="conversation-anomaly"
                              title={`${value} — ${describeAnomaly(value) ? anomalyTitle(t, value) : ''}`}
                              className="min-w-0 max-w-full shrink-0 truncate rounded bg-red-100 px-1 font-mono font-medium text-red-800 ring-1 ring-inset ring-red-200 last:shrink"
                            >
                              {value}
                            </span>
                          ))}
                        </span>
                        <span
                          className="shrink-0 font-semibold text-red-700"
                          title={`${t('timeline.anomalies', { count: conversation.anomalyCount })}: ${conversation.anomalyCodes.join(', ')}`}
                        >
                          ⚠ {conversation.anomalyCount}
                        </span>
                      </>
                    )}
                  </div>
                </div>
              )
            })}
          </div>
        </div>
      )}
    </section>
  )
}
