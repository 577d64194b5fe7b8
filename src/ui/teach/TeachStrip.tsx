import { useEffect, useState } from 'react'
import { createAppendFold, type SessionEvent } from '../../core/loop'
import { useTranslation } from 'react-i18next'
import { findLesson } from '../../lessons/index'
import { LoopDiagram } from '../diagram/LoopDiagram'
import { narrationText } from '../narration/text'
import { usePlayground, useRun } from '../playground-context'
import { useTeach, useTeachStore } from './teach-context'
import { usePrefs } from '../prefs'
import { useMediaQuery } from '../layout/use-media-query'

/** Narration of the event at the cursor and the live loop diagram, above the timeline. */
export function TeachStrip() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const teach = useTeachStore()
  const events = useRun((s) => s.events)
  const cursor = useRun((s) => s.cursor)
  const presenter = useTeach((s) => s.presenter)
  const lessonId = useTeach((s) => s.lessonId)
  // A short screen (720 px at 150 % zoom) starts with the diagram folded away, so the timeline has room.
  const short = useMediaQuery('(max-height: 560px)')
  const diagramOpen = usePrefs((s) => (short ? s.diagramOpenShort : s.diagramOpen))
  const setDiagramOpen = (open: boolean) => usePrefs.getState().setDiagramOpen(open, short)
  const text = cursor >= 0 ? narrationText(t, events, cursor) : t('diagram.empty')

  // A lesson without a challenge counts as done once its run has come to a stop.
  const [stoppedIn] = useState(() => createAppendFold<SessionEvent, { stopped: boolean }, boolean>({ start: () => ({ stopped: false }), add: (acc, e) => void (acc.stopped ||= e.type === 'loop.stopped'), view: (acc) => acc.stopped }))
  const stopped = stoppedIn(events)
  useEffect(() => {
    if (stopped && lessonId && !findLesson(lessonId)?.challenge) teach.getState().markDone(lessonId)
  }, [stopped, lessonId, teach])

  // The strip may shrink (and scroll) so the timeline below keeps its room on a short screen;
  // the diagram folds away with its toggle, and is drawn smaller on a lower screen.
  return (
    // At least one line of narration stays in view however short the screen.
    <div data-testid="teach-strip" className={`flex min-w-0 shrink flex-col gap-1 overflow-y-auto border-b border-slate-200 bg-white px-3 py-1.5 ${presenter ? 'min-h-14' : 'min-h-9'}`}>
      <div className="flex min-w-0 items-start gap-2">
        <p
          data-testid="narration"
          aria-live="polite"
          className={`min-w-0 flex-1 ${presenter ? 'text-2xl font-medium leading-snug [@media(max-height:600px)]:text-xl' : 'text-sm'} ${cursor >= 0 ? 'text-slate-900' : 'text-slate-500'}`}
        >
          {text}
        </p>
        <button
          data-testid="diagram-toggle"
          aria-expanded={diagramOpen}
          aria-controls="loop-diagram-box"
          onClick={() => setDiagramOpen(!diagramOpen)}
          title={diagramOpen ? t('workbench.hideDiagram') : t('workbench.showDiagram')}
          className="shrink-0 rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs text-slate-600 hover:bg-slate-100"
        >
          {diagramOpen ? `▴ ${t('workbench.diagram')}` : `▾ ${t('workbench.diagram')}`}
        </button>
      </div>
      {diagramOpen && (
        <div id="loop-diagram-box" className="mx-auto w-full min-w-0 max-w-3xl [&_svg]:max-h-[min(10rem,20vh)]">
          <LoopDiagram events={events} cursor={cursor} onSelect={(i) => pg.stores.run.getState().setCursor(i)} />
        </div>
      )}
    </div>
  )
}
