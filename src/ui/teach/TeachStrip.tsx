import { useEffect, useRef, useState } from 'react'
import { createAppendFold, type SessionEvent } from '../../core/loop'
import { useTranslation } from 'react-i18next'
import { findLesson } from '../../lessons/index'
import { LoopDiagram } from '../diagram/LoopDiagram'
import { narrationText } from '../narration/text'
import { usePlayground, useRun } from '../playground-context'
import { useTeach, useTeachStore } from './teach-context'
import { usePrefs } from '../prefs'
import { useShorterThanRem } from '../layout/use-root-font'

/**
 * How many lines the narration shows folded: in presenter mode its type is large, so two (one on
 * a very short screen) leave the diagram and several timeline rows in view; the rest is one click
 * (or Tab and Enter) away.
 */
function foldedLines(presenter: boolean, short: boolean): string {
  if (!presenter) return 'line-clamp-3'
  return short ? 'line-clamp-1' : 'line-clamp-2'
}

/** Narration of the event at the cursor and the live loop diagram, above the timeline. */
export function TeachStrip() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const teach = useTeachStore()
  const events = useRun((s) => s.events)
  const cursor = useRun((s) => s.cursor)
  const presenter = useTeach((s) => s.presenter)
  const lessonId = useTeach((s) => s.lessonId)
  // A short screen starts with the diagram folded away, so the timeline has room. Short is
  // counted in rem, with the text size: 560 px at 100 % (35 rem); presenter mode, which hides the
  // model bar and the breakpoints, keeps the diagram down to 26 rem (720 px at 150 % is 30 rem).
  const short = useShorterThanRem(presenter ? 26 : 35)
  const diagramOpen = usePrefs((s) => (short ? s.diagramOpenShort : s.diagramOpen))
  const setDiagramOpen = (open: boolean) => usePrefs.getState().setDiagramOpen(open, short)
  const text = cursor >= 0 ? narrationText(t, events, cursor) : t('diagram.empty')

  // The narration folds to a few lines; when that cuts it, a button unfolds it (then it scrolls).
  const [unfolded, setUnfolded] = useState(false)
  const [cut, setCut] = useState(false)
  const narration = useRef<HTMLParagraphElement>(null)
  // Read in a ResizeObserver callback, which runs after the browser's own layout: reading
  // `scrollHeight` right after a commit forced a layout of the whole page on every cursor move
  // (tens of ms per phase of a big run). A new observation reports once, so a new text is
  // checked once, on the next frame, and a resize of the strip is checked as it happens.
  useEffect(() => {
    const element = narration.current
    if (!element || unfolded) return
    const observer = new ResizeObserver(() => setCut(element.scrollHeight > element.clientHeight + 1))
    observer.observe(element)
    return () => observer.disconnect()
  }, [text, unfolded, presenter, short])

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
    <div data-testid="teach-strip" className={`flex min-w-0 shrink flex-col gap-1 overflow-y-auto border-b border-slate-200 bg-white px-3 py-1.5 ${presenter ? 'min-h-[min(3.5rem,10vh)]' : 'min-h-9'}`}>
      <div className="flex min-w-0 items-start gap-2">
        <p
          ref={narration}
          id="narration"
          data-testid="narration"
          data-folded={!unfolded && cut ? 'true' : undefined}
          aria-live="polite"
          // Presenter type is large, but no more than 5 % of the screen's height (200 % text on 720 px).
          className={`min-w-0 flex-1 ${presenter ? 'text-[length:min(1.5rem,5vh)] font-medium leading-snug' : 'text-sm'} ${unfolded ? 'max-h-[30vh] overflow-y-auto' : foldedLines(presenter, short)} ${cursor >= 0 ? 'text-slate-900' : 'text-slate-500'}`}
        >
          {text}
        </p>
        {(cut || unfolded) && (
          <button
            data-testid="narration-toggle"
            aria-expanded={unfolded}
            aria-controls="narration"
            onClick={() => setUnfolded(!unfolded)}
            title={unfolded ? t('workbench.foldNarration') : t('workbench.unfoldNarration')}
            className="shrink-0 rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs text-slate-600 hover:bg-slate-100"
          >
            {unfolded ? `▴ ${t('workbench.narrationLess')}` : `▾ ${t('workbench.narrationMore')}`}
          </button>
        )}
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
        // The drawing keeps a readable height (never squeezed by the narration): it scales with the
        // screen's height, not the text size, between 88 px and 240 px.
        <div id="loop-diagram-box" className={`mx-auto w-full min-w-0 max-w-3xl shrink-0 ${presenter ? '[&_svg]:h-[clamp(88px,20vh,240px)] [&_svg]:max-h-none' : '[&_svg]:max-h-[min(10rem,20vh)] [&_svg]:min-h-[72px]'}`}>
          <LoopDiagram events={events} cursor={cursor} onSelect={(i) => pg.stores.run.getState().setCursor(i)} />
        </div>
      )}
    </div>
  )
}
