import type { SessionEvent } from '../../core/loop'
import { useMemo } from 'react'
import { breakpointRows } from '../../core/debug'
import { usePlayground, useWorkspace } from '../playground-context'
import { usePrefs, type TimelineView } from '../prefs'
import { ConversationView } from './ConversationView'
import { Timeline } from './Timeline'

const VIEWS: { value: TimelineView; label: string; title: string }[] = [
  { value: 'phases', label: 'Phases', title: 'One row per loop phase: decide, parse, validate, execute, backfill' },
  { value: 'conversation', label: 'Conversation', title: 'One card per message: raw model output beside the parsed calls, tool results' },
]

/** The session log shown as phases or as a conversation; the choice is remembered. */
export function TimelinePane({ events, cursor }: { events: readonly SessionEvent[]; cursor: number }) {
  const view = usePrefs((s) => s.timelineView)
  const pg = usePlayground()
  const select = (index: number) => pg.stores.run.getState().setCursor(index)
  const breakpoints = useWorkspace((s) => s.settings.breakpoints)
  const marks = useMemo(() => breakpointRows(breakpoints ?? [], events), [breakpoints, events])
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div
        role="radiogroup"
        aria-label="Timeline view"
        data-testid="timeline-view"
        data-value={view}
        className="flex shrink-0 items-center gap-1 border-b border-slate-200 bg-slate-50 px-2 py-1 text-xs"
      >
        {VIEWS.map((v) => (
          <label
            key={v.value}
            title={v.title}
            className={`cursor-pointer rounded px-2 py-0.5 ${view === v.value ? 'bg-white font-semibold text-slate-900 shadow-sm ring-1 ring-slate-300' : 'text-slate-500 hover:text-slate-800'}`}
          >
            <input
              type="radio"
              name="timeline-view"
              value={v.value}
              checked={view === v.value}
              onChange={() => usePrefs.getState().setTimelineView(v.value)}
              className="sr-only"
            />
            {v.label}
          </label>
        ))}
      </div>
      <div className="min-h-0 flex-1">
        {view === 'conversation' ? <ConversationView events={events} cursor={cursor} onSelect={select} /> : <Timeline events={events} cursor={cursor} onSelect={select} breakpointRows={marks} />}
      </div>
    </div>
  )
}
