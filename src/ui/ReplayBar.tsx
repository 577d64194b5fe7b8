import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { usePlayground, useReplay, useRun } from './playground-context'
import { conversationLabel, fileLabel } from './i18n/text'

/** Conversations offered in the quick picker; the conversation list shows every one. */
const SELECT_LIMIT = 200

/** Shown while replaying an imported log: which conversation, and how many anomalies it has. */
export function ReplayBar() {
  const { t, i18n } = useTranslation()
  const pg = usePlayground()
  const fileName = useReplay((s) => s.fileName)
  const fileNamePhrase = useReplay((s) => s.fileNamePhrase)
  const conversations = useReplay((s) => s.conversations)
  const selected = useReplay((s) => s.selected)
  const toolsFileName = useReplay((s) => s.toolsFileName)
  const mode = useRun((s) => s.mode)
  const events = useRun((s) => s.events)
  const cursor = useRun((s) => s.cursor)
  const anomalyCount = useMemo(() => events.reduce((n, e) => n + (e.anomalies?.length ?? 0), 0), [events])
  const nextAnomaly = events.findIndex((e, i) => i > cursor && (e.anomalies?.length ?? 0) > 0)
  const previousAnomaly = events.findLastIndex((e, i) => i < cursor && (e.anomalies?.length ?? 0) > 0)
  // Thousands of <option>s would take long to render; the virtualised list shows them all.
  const options = useMemo(() => {
    const first = conversations.slice(0, SELECT_LIMIT)
    const open = conversations[selected]
    return open && selected >= SELECT_LIMIT ? [...first, open] : first
  }, [conversations, selected])
  if (mode !== 'replay' || conversations.length === 0) return null
  return (
    <div className="flex flex-wrap items-center gap-3 border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-sm">
      <span className="font-medium text-amber-900">{t('replay.replaying', { file: fileLabel(t, fileName ?? '', fileNamePhrase) })}</span>
      <label className="flex items-center gap-1 text-slate-600">
        {t('replay.conversation')}
        <select
          data-testid="conversation-select"
          value={selected}
          onChange={(e) => void pg.openConversation(Number(e.target.value))}
          className="max-w-[20rem] rounded border border-slate-300 bg-white px-1.5 py-0.5 text-sm"
        >
          {options.map((c) => (
            <option key={c.index} value={c.index}>
              {c.index + 1}. {conversationLabel(t, c)} {t('replay.messages', { count: c.messageCount })}
            </option>
          ))}
          {conversations.length > options.length && (
            <option disabled value={-1}>
              … {t('replay.more', { count: (conversations.length - options.length).toLocaleString(i18n.language) })}
            </option>
          )}
        </select>
      </label>
      <span className={anomalyCount ? 'font-medium text-red-700' : 'text-emerald-700'}>
        {anomalyCount ? t(anomalyCount === 1 ? 'replay.anomalyOne' : 'replay.anomalyMany', { count: anomalyCount }) : t('replay.noAnomalies')}
      </span>
      {anomalyCount > 0 && (
        <span className="flex gap-1">
          <button
            data-testid="previous-anomaly"
            disabled={previousAnomaly < 0}
            onClick={() => pg.stores.run.getState().setCursor(previousAnomaly)}
            className="rounded border border-red-300 bg-white px-2 py-0.5 text-xs text-red-800 disabled:opacity-40"
          >
            ‹ {t('replay.previous')}
          </button>
          <button
            data-testid="next-anomaly"
            disabled={nextAnomaly < 0}
            onClick={() => pg.stores.run.getState().setCursor(nextAnomaly)}
            className="rounded border border-red-300 bg-white px-2 py-0.5 text-xs text-red-800 disabled:opacity-40"
          >
            {t('replay.next')} ›
          </button>
        </span>
      )}
      <span className="text-xs text-slate-500">
        {toolsFileName ? (
          <>
            {t('replay.schemasFrom', { file: toolsFileName })}{' '}
            <button data-testid="clear-tools" className="text-sky-700 underline" onClick={() => void pg.clearReplayTools()}>
              {t('replay.clear')}
            </button>
          </>
        ) : (
          t('replay.importTools')
        )}
      </span>
      <button data-testid="close-replay" className="ml-auto rounded border border-slate-300 bg-white px-2 py-0.5 text-xs hover:bg-slate-50" onClick={pg.closeReplay}>
        {t('replay.close')}
      </button>
    </div>
  )
}
