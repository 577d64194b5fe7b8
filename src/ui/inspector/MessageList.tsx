import { useTranslation } from 'react-i18next'
import type { Message } from '../../core/messages'
import { WindowedList } from './WindowedList'
import { LongText } from './LongText'
import { InlineArguments } from './ArgumentsText'

const ROLE_STYLE: Record<Message['role'], string> = {
  system: 'border-slate-300 bg-slate-50',
  user: 'border-sky-300 bg-sky-50',
  assistant: 'border-violet-300 bg-violet-50',
  tool: 'border-emerald-300 bg-emerald-50',
}

/** Calls of one assistant message listed in its card; a turn of 100 000 would make one card of 100 000 lines. */
const CALLS_SHOWN = 100

/** Messages in canonical form: role, text, tool calls with their `tool_call_id`, tool results. */
export function MessageList({ messages, collapseSystem = true }: { messages: readonly Message[]; collapseSystem?: boolean }) {
  const { t } = useTranslation()
  return (
    <WindowedList
      as="ol"
      className="flex flex-col gap-1.5"
      count={messages.length}
      render={(i) => {
        const m = messages[i]!
        const error = m.role === 'tool' && m.isError
        return (
          <li key={i} data-testid="message" data-role={m.role} className={`rounded border-l-4 px-2 py-1 text-xs ${error ? 'border-red-400 bg-red-50' : ROLE_STYLE[m.role]}`}>
            <div className="mb-0.5 flex gap-2 font-semibold text-slate-600">
              <span>{m.role}</span>
              {m.role === 'tool' && <span className="font-mono font-normal text-slate-500">tool_call_id {m.tool_call_id} · {m.name}</span>}
            </div>
            {m.role === 'system' && collapseSystem ? (
              <details>
                <summary className="cursor-pointer text-slate-500">{t('results.systemPrompt', { count: m.content.length })}</summary>
                <LongText text={m.content} className="whitespace-pre-wrap font-mono text-slate-700 [overflow-wrap:anywhere]" />
              </details>
            ) : m.content ? (
              <LongText text={m.content} className={`whitespace-pre-wrap [overflow-wrap:anywhere] font-sans ${error ? 'text-red-700' : 'text-slate-800'}`} />
            ) : null}
            {m.role === 'assistant' &&
              m.tool_calls?.slice(0, CALLS_SHOWN).map((c) => (
                <div key={c.id} className="mt-0.5 font-mono text-slate-700 [overflow-wrap:anywhere]">
                  → {c.name}(<InlineArguments args={c.arguments} />) <span className="text-slate-400">[{c.id}]</span>
                </div>
              ))}
            {m.role === 'assistant' && (m.tool_calls?.length ?? 0) > CALLS_SHOWN && (
              <div data-testid="message-more-calls" className="mt-0.5 text-slate-500">
                {t('longText.moreCalls', { n: ((m.tool_calls?.length ?? 0) - CALLS_SHOWN).toLocaleString(), count: (m.tool_calls?.length ?? 0) - CALLS_SHOWN })}
              </div>
            )}
          </li>
        )
      }}
    />
  )
}
