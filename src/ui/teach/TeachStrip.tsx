import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { findLesson } from '../../lessons/index'
import { LoopDiagram } from '../diagram/LoopDiagram'
import { narrationText } from '../narration/text'
import { usePlayground, useRun } from '../playground-context'
import { useTeach, useTeachStore } from './teach-context'

/** Narration of the event at the cursor and the live loop diagram, above the timeline. */
export function TeachStrip() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const teach = useTeachStore()
  const events = useRun((s) => s.events)
  const cursor = useRun((s) => s.cursor)
  const presenter = useTeach((s) => s.presenter)
  const lessonId = useTeach((s) => s.lessonId)
  const text = cursor >= 0 ? narrationText(t, events, cursor) : t('diagram.empty')

  // A lesson without a challenge counts as done once its run has come to a stop.
  const stopped = events.some((e) => e.type === 'loop.stopped')
  useEffect(() => {
    if (stopped && lessonId && !findLesson(lessonId)?.challenge) teach.getState().markDone(lessonId)
  }, [stopped, lessonId, teach])

  return (
    <div className="flex min-w-0 flex-col gap-1 border-b border-slate-200 bg-white px-3 py-1.5">
      <p data-testid="narration" aria-live="polite" className={`min-w-0 flex-1 ${presenter ? 'text-2xl font-medium leading-snug' : 'text-sm'} ${cursor >= 0 ? 'text-slate-900' : 'text-slate-500'}`}>
        {text}
      </p>
      <div className="mx-auto w-full min-w-0 max-w-3xl">
        <LoopDiagram events={events} cursor={cursor} onSelect={(i) => pg.stores.run.getState().setCursor(i)} />
      </div>
    </div>
  )
}
