import { useState, type MouseEvent } from 'react'
import type { StoreApi } from 'zustand'
import { useTranslation } from 'react-i18next'
import { asLanguage } from '../i18n/languages'
import { lessons, type Lesson } from '../../lessons/index'
import { usePlayground, useRun } from '../playground-context'
import { openLesson } from './open-lesson'
import { useTeach, useTeachStore } from './teach-context'
import type { TeachState } from './teach-store'

/**
 * In presenter mode, a button that opened a lesson gives the keyboard back to the page: Space then
 * steps the lesson, instead of pressing the button again (which reopened it, or skipped to the next).
 */
function handBack(event: MouseEvent<HTMLButtonElement>, teach: StoreApi<TeachState>): void {
  if (teach.getState().presenter) event.currentTarget.blur()
}

const SECTIONS: Lesson['section'][] = ['basics', 'formats', 'robust', 'production', 'failures']

/** The chosen lesson's text and challenge. */
function LessonText({ lesson }: { lesson: Lesson }) {
  const { t, i18n } = useTranslation()
  const language = asLanguage(i18n.language) ?? 'en'
  const pg = usePlayground()
  const teach = useTeachStore()
  const check = useTeach((s) => (s.check?.lessonId === lesson.id ? s.check : null))
  const events = useRun((s) => s.events)
  const [solutionShown, setSolutionShown] = useState(false)
  const index = lessons.indexOf(lesson)
  const next = lessons[index + 1]
  const key = (part: string) => `lessons.${lesson.id}.${part}`
  return (
    <div data-testid="lesson-text" className="space-y-2 p-3 text-sm leading-relaxed">
      <h3 className="text-base font-semibold text-slate-900">{t(key('title'))}</h3>
      <p><span className="font-medium text-slate-700">{t('lessonsPanel.goal')}: </span>{t(key('goal'))}</p>
      <p><span className="font-medium text-slate-700">{t('lessonsPanel.watch')}: </span>{t(key('watch'))}</p>
      <p><span className="font-medium text-slate-700">{t('lessonsPanel.question')}: </span>{t(key('question'))}</p>
      {lesson.challenge && (
        <div className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-2">
          <p><span className="font-medium text-amber-900">{t('lessonsPanel.challenge')}: </span>{t(key('challenge'))}</p>
          <p className="text-xs text-amber-800">{t('lessonsPanel.checkHint')}</p>
          <div className="flex flex-wrap gap-2">
            <button data-testid="challenge-check" className="rounded border border-amber-600 bg-amber-500 px-2 py-1 text-sm font-medium text-white hover:bg-amber-600" onClick={() => teach.getState().checkChallenge(events)}>
              {t('lessonsPanel.check')}
            </button>
            <button
              data-testid="challenge-solution"
              className="rounded border border-slate-300 bg-white px-2 py-1 text-sm hover:bg-slate-50"
              onClick={(event) => {
                openLesson(pg, teach, lesson.id, { solution: true, language })
                handBack(event, teach)
                setSolutionShown(true)
              }}
            >
              {t('lessonsPanel.showSolution')}
            </button>
          </div>
          {solutionShown && !check && <p role="status" className="text-xs text-slate-700">{t('lessonsPanel.solutionLoaded')}</p>}
          {check && (
            <div data-testid="challenge-result" data-passed={String(check.passed)} role="status" className={check.passed ? 'font-medium text-emerald-800' : 'text-red-800'}>
              {check.passed ? (
                t('lessonsPanel.passed')
              ) : (
                <>
                  {t('lessonsPanel.failed')}
                  <ul className="ml-4 list-disc">
                    {check.problems.map((problem, i) => (
                      <li key={i}>{t(`challenge.problem.${problem.key}`, problem.params ?? {})}</li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          )}
        </div>
      )}
      <div className="flex gap-2 pt-1">
        <button
          data-testid="lesson-reload"
          className="rounded border border-slate-300 bg-white px-2 py-1 text-xs hover:bg-slate-50"
          onClick={(event) => {
            openLesson(pg, teach, lesson.id, { language })
            handBack(event, teach)
          }}
        >
          {t('lessonsPanel.reset')}
        </button>
        {next && (
          <button
            data-testid="lesson-next"
            className="rounded border border-sky-600 bg-sky-600 px-2 py-1 text-xs text-white hover:bg-sky-700"
            onClick={(event) => {
              openLesson(pg, teach, next.id, { language })
              handBack(event, teach)
            }}
          >
            {t('lessonsPanel.next')} →
          </button>
        )}
      </div>
    </div>
  )
}

/** The *Lessons* panel: the path by section, progress, and the chosen lesson's text. */
export function LessonsPanel() {
  const { t, i18n } = useTranslation()
  const language = asLanguage(i18n.language) ?? 'en'
  const pg = usePlayground()
  const teach = useTeachStore()
  const open = useTeach((s) => s.panelOpen)
  const lessonId = useTeach((s) => s.lessonId)
  const done = useTeach((s) => s.done)
  // Folded to a strip, the panel stays at hand while the run gets the width (a projected laptop at 150 %).
  const [folded, setFolded] = useState(false)
  if (!open) return null
  const chosen = lessons.find((l) => l.id === lessonId)
  if (folded) {
    return (
      <aside data-testid="lessons" data-folded="true" aria-label={t('lessonsPanel.title')} className="flex w-9 shrink-0 flex-col items-center gap-2 overflow-hidden border-r border-slate-200 bg-white py-2">
        <button data-testid="lessons-fold" aria-expanded={false} aria-label={t('lessonsPanel.unfold')} title={t('lessonsPanel.unfold')} className="rounded px-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900" onClick={() => setFolded(false)}>
          »
        </button>
        <span className="text-sm font-semibold text-slate-700 [writing-mode:vertical-rl]">{chosen ? t(`lessons.${chosen.id}.title`) : t('lessonsPanel.title')}</span>
      </aside>
    )
  }
  return (
    <aside data-testid="lessons" aria-label={t('lessonsPanel.title')} className="flex w-80 min-w-0 max-w-[28vw] shrink-0 flex-col overflow-y-auto border-r border-slate-200 bg-white">
      <div className="flex flex-wrap items-center justify-between gap-x-2 border-b border-slate-200 px-3 py-2">
        <h2 className="font-semibold">{t('lessonsPanel.title')}</h2>
        <span className="text-xs text-slate-500">{t('lessonsPanel.progress', { done: done.length, total: lessons.length })}</span>
        <span className="flex items-center gap-1">
          <button data-testid="lessons-fold" aria-expanded={true} aria-label={t('lessonsPanel.fold')} title={t('lessonsPanel.fold')} className="rounded px-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900" onClick={() => setFolded(true)}>
            «
          </button>
          <button aria-label={t('common.close')} className="text-slate-500 hover:text-slate-900" onClick={() => teach.getState().setPanelOpen(false)}>✕</button>
        </span>
      </div>
      {chosen && <LessonText key={chosen.id} lesson={chosen} />}
      <nav className="border-t border-slate-200 p-2">
        {SECTIONS.map((section) => (
          <div key={section} className="mb-2">
            <h3 className="px-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{t(`lessonSections.${section}`)}</h3>
            <ol className="mt-1">
              {lessons.filter((l) => l.section === section).map((lesson) => (
                <li key={lesson.id}>
                  <button
                    data-testid="lesson-item"
                    data-lesson-id={lesson.id}
                    aria-current={lesson.id === lessonId ? 'true' : undefined}
                    onClick={(event) => {
                      openLesson(pg, teach, lesson.id, { language })
                      handBack(event, teach)
                    }}
                    className={`flex w-full items-start gap-2 rounded px-2 py-1 text-left text-sm ${lesson.id === lessonId ? 'bg-sky-100 font-medium text-sky-900' : 'hover:bg-slate-100'}`}
                  >
                    <span className="w-5 shrink-0 text-right text-xs text-slate-400">{lessons.indexOf(lesson) + 1}</span>
                    <span className="min-w-0 flex-1">{t(`lessons.${lesson.id}.title`)}</span>
                    {done.includes(lesson.id) && <span aria-label={t('lessonsPanel.done')} className="text-emerald-600">✓</span>}
                  </button>
                </li>
              ))}
            </ol>
          </div>
        ))}
      </nav>
    </aside>
  )
}
