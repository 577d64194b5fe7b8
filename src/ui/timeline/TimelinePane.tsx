import type { SessionEvent } from '../../core/loop'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { createBreakpointRows, type Breakpoint } from '../../core/debug'
import { usePlayground, useWorkspace } from '../playground-context'
import { usePrefs, type TimelineView } from '../prefs'
import { ConversationView } from './ConversationView'
import { Timeline } from './Timeline'

// Labels are `timeline.view.<value>` and `timeline.viewHint.<value>` in the UI resources.
const VIEWS: readonly TimelineView[] = ['phases', 'conversation']
// One empty list, so a workspace without breakpoints keeps the same fold across updates.
const NO_BREAKPOINTS: readonly Breakpoint[] = []

/** The session log shown as phases or as a conversation; the choice is remembered. */
export function TimelinePane({ events, cursor }: { events: readonly SessionEvent[]; cursor: number }) {
  const { t } = useTranslation()
  const view = usePrefs((s) => s.timelineView)
  const pg = usePlayground()
  const select = (index: number) => pg.stores.run.getState().setCursor(index)
  const breakpoints = useWorkspace((s) => s.settings.breakpoints)
  // A live run's log grows phase by phase: only the new events are checked on each update.
  const [rowsOf] = useState(createBreakpointRows)
  const marks = useMemo(() => rowsOf(breakpoints ?? NO_BREAKPOINTS, events), [rowsOf, breakpoints, events])
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div
        role="radiogroup"
        aria-label={t('timeline.viewLabel')}
        data-testid="timeline-view"
        data-value={view}
        className="flex shrink-0 items-center gap-1 border-b border-slate-200 bg-slate-50 px-2 py-1 text-xs"
      >
        {VIEWS.map((v) => (
          <label
            key={v}
            title={t(`timeline.viewHint.${v}`)}
            className={`cursor-pointer rounded px-2 py-0.5 ${view === v ? 'bg-white font-semibold text-slate-900 shadow-sm ring-1 ring-slate-300' : 'text-slate-500 hover:text-slate-800'}`}
          >
            <input
              type="radio"
              name="timeline-view"
              value={v}
              checked={view === v}
              onChange={() => usePrefs.getState().setTimelineView(v)}
              className="sr-only"
            />
            {t(`timeline.view.${v}`)}
          </label>
        ))}
      </div>
      <div className="min-h-0 flex-1">
        {view === 'conversation' ? <ConversationView events={events} cursor={cursor} onSelect={select} /> : <Timeline events={events} cursor={cursor} onSelect={select} breakpointRows={marks} />}
      </div>
    </div>
  )
}
