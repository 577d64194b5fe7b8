import { useTranslation } from 'react-i18next'
import type { Message } from '../../core/messages'
import { WindowedList } from './WindowedList'

const ROLE_STYLE: Record<Message['role'], string> = {
  system: 'border-slate-300 bg-slate-50',
  user: 'border-sky-300 bg-sky-50',
  assistant: 'border-violet-300 bg-violet-50',
  tool: 'border-emerald-300 bg-emerald-50',
}

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
                <pre className="whitespace-pre-wrap font-mono text-slate-700 [overflow-wrap:anywhere]">{m.content}</pre>
              </details>
            ) : m.content ? (
              <pre className={`whitespace-pre-wrap [overflow-wrap:anywhere] font-sans ${error ? 'text-red-700' : 'text-slate-800'}`}>{m.content}</pre>
            ) : null}
            {m.role === 'assistant' &&
              m.tool_calls?.map((c) => (
                <div key={c.id} className="mt-0.5 font-mono text-slate-700 [overflow-wrap:anywhere]">
                  → {c.name}({JSON.stringify(c.arguments)}) <span className="text-slate-400">[{c.id}]</span>
                </div>
              ))}
          </li>
        )
      }}
    />
  )
}
