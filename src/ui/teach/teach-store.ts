/**
 * Teaching state of the UI: the lessons panel, the chosen lesson, lesson progress, the last
 * challenge check, presenter mode and text size, and a workspace that arrived in a share link.
 * Progress, the lesson and the presenter preferences are kept in `storage` (localStorage in the
 * browser); nothing here reaches the network.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { SessionEvent } from '../../core/loop'
import { findLesson } from '../../lessons/index'
import type { Problem } from '../../lessons/checks'
import { readItem, writeItem, type KeyValueStorage } from '../../store/storage'
import type { SharePayload } from './share-link'

/** Storage key of the lesson state (`{lessonId, done}`). */
export const LESSONS_KEY = 'toolstep.lessons'
/** Storage key of the presenter preferences (`{fontSize}`). */
export const PRESENTER_KEY = 'toolstep.presenter'

/** Text size bounds, percent of the normal size. */
export const FONT_SIZE_MIN = 100
export const FONT_SIZE_MAX = 200

/** The outcome of *Check* for one lesson. */
export interface CheckResult {
  lessonId: string
  passed: boolean
  problems: Problem[]
}

/** A workspace from a share link, waiting for the user to say whether it may replace theirs. */
export interface PendingLink {
  payload: SharePayload
}

export interface TeachState {
  panelOpen: boolean
  lessonId: string | null
  /** Ids of lessons whose challenge passed (or, without one, that were opened and run to a stop). */
  done: string[]
  check: CheckResult | null
  presenter: boolean
  /** The editors are folded away so the timeline, inspector and diagram fill the screen (presenter mode). */
  editorsHidden: boolean
  /** Text size of the whole UI and the editors, percent (100–200). */
  fontSize: number
  /** Set while a share link waits for an answer. */
  pendingLink: PendingLink | null
  /** Set once a link's workspace is open, until dismissed or the workspace is replaced. */
  fromLink: boolean
  setPanelOpen(open: boolean): void
  selectLesson(id: string | null): void
  /** Checks the lesson's challenge over `events`; records progress when it passes. */
  checkChallenge(events: readonly SessionEvent[]): CheckResult | null
  markDone(id: string): void
  /** Presenter mode on (editors folded away) or off (editors back). */
  setPresenter(on: boolean): void
  setEditorsHidden(hidden: boolean): void
  setFontSize(percent: number): void
  setPendingLink(link: PendingLink | null): void
  setFromLink(on: boolean): void
}

function readJson(storage: KeyValueStorage, key: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readItem(storage, key) ?? '{}')
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** `percent` rounded and clamped to {@link FONT_SIZE_MIN}–{@link FONT_SIZE_MAX}; 100 when not a number. */
export function clampFontSize(percent: number): number {
  if (!Number.isFinite(percent)) return FONT_SIZE_MIN
  return Math.min(FONT_SIZE_MAX, Math.max(FONT_SIZE_MIN, Math.round(percent)))
}

/** The teaching store, restored from `storage` (unreadable or unknown values fall back to defaults). */
export function createTeachStore(storage: KeyValueStorage): StoreApi<TeachState> {
  const lessonsSaved = readJson(storage, LESSONS_KEY)
  const presenterSaved = readJson(storage, PRESENTER_KEY)
  const savedLesson = typeof lessonsSaved.lessonId === 'string' && findLesson(lessonsSaved.lessonId) ? lessonsSaved.lessonId : null
  const savedDone = Array.isArray(lessonsSaved.done) ? lessonsSaved.done.filter((id): id is string => typeof id === 'string' && findLesson(id) !== undefined) : []

  const store = createStore<TeachState>()((set, get) => ({
    panelOpen: false,
    lessonId: savedLesson,
    done: savedDone,
    check: null,
    presenter: false,
    editorsHidden: false,
    fontSize: clampFontSize(typeof presenterSaved.fontSize === 'number' ? presenterSaved.fontSize : FONT_SIZE_MIN),
    pendingLink: null,
    fromLink: false,
    setPanelOpen: (panelOpen) => set({ panelOpen }),
    selectLesson: (lessonId) => set({ lessonId: lessonId && findLesson(lessonId) ? lessonId : null, check: null }),
    checkChallenge(events) {
      const lesson = get().lessonId ? findLesson(get().lessonId as string) : undefined
      if (!lesson?.challenge) return null
      const stopped = events.some((e) => e.type === 'loop.stopped')
      const problems = stopped ? lesson.challenge.check(events) : [{ key: events.length === 0 ? 'notRun' : 'notStopped' }]
      const result = { lessonId: lesson.id, passed: problems.length === 0, problems }
      set({ check: result })
      if (result.passed) get().markDone(lesson.id)
      return result
    },
    markDone: (id) => {
      if (!get().done.includes(id)) set({ done: [...get().done, id] })
    },
    setPresenter: (presenter) => set({ presenter, editorsHidden: presenter }),
    setEditorsHidden: (editorsHidden) => set({ editorsHidden }),
    setFontSize: (percent) => set({ fontSize: clampFontSize(percent) }),
    setPendingLink: (pendingLink) => set({ pendingLink }),
    setFromLink: (fromLink) => set({ fromLink }),
  }))

  store.subscribe((state, previous) => {
    if (state.lessonId !== previous.lessonId || state.done !== previous.done)
      writeItem(storage, LESSONS_KEY, JSON.stringify({ lessonId: state.lessonId, done: state.done }))
    if (state.fontSize !== previous.fontSize) writeItem(storage, PRESENTER_KEY, JSON.stringify({ fontSize: state.fontSize }))
  })
  return store
}
