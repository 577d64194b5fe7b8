/**
 * Opening a share link: the workspace in the fragment is shown (never run), and replaces the
 * user's workspace only when that holds no work of their own (it equals an example or a lesson,
 * or the link's own workspace); otherwise the user is asked first.
 */
import type { StoreApi } from 'zustand'
import type { Workspace } from '../../core/files'
import { examples } from '../../examples/index'
import { findLesson, LESSON_LANGUAGES, lessonWorkspace, lessons } from '../../lessons/index'
import type { Playground } from '../../store/playground'
import { decodeShare, type SharePayload } from './share-link'
import type { Phrase } from '../i18n/text'
import type { TeachState } from './teach-store'

type Code = Pick<Workspace, 'tools' | 'model' | 'input'>
const same = (a: Code, b: Code) => a.tools === b.tools && a.model === b.model && a.input === b.input

/** True when `current` is an example's or a lesson's code as shipped (so nothing of the user's is lost). */
export function isPristine(current: Code): boolean {
  return examples.some((e) => same(current, e)) || lessons.some((l) => LESSON_LANGUAGES.some((language) => same(current, lessonWorkspace(l.workspace, language))))
}

/** Puts the link's workspace (and lesson) in place, without running anything. */
export function applyLink(pg: Playground, teach: StoreApi<TeachState>, payload: SharePayload): void {
  pg.stores.workspace.getState().loadWorkspace(payload.workspace)
  pg.reset()
  const lesson = payload.lessonId && findLesson(payload.lessonId) ? payload.lessonId : null
  teach.getState().selectLesson(lesson)
  if (lesson) teach.getState().setPanelOpen(true)
  teach.getState().setPendingLink(null)
  teach.getState().setFromLink(true)
}

/** What opening the fragment did. */
export type LinkOutcome = { kind: 'none' } | { kind: 'opened' } | { kind: 'asked' } | { kind: 'invalid'; error: string; phrase?: Phrase }

/**
 * Reads `fragment` (`location.hash`) and opens or offers its workspace. Never throws; never runs
 * the workspace.
 */
export async function openLinkFragment(pg: Playground, teach: StoreApi<TeachState>, fragment: string): Promise<LinkOutcome> {
  if (!fragment.startsWith('#share=')) return { kind: 'none' }
  const decoded = await decodeShare(fragment)
  if (!decoded.ok) return { kind: 'invalid', error: decoded.error, ...(decoded.phrase ? { phrase: decoded.phrase } : {}) }
  const current = pg.currentWorkspace()
  if (isPristine(current) || same(current, decoded.payload.workspace)) {
    applyLink(pg, teach, decoded.payload)
    return { kind: 'opened' }
  }
  teach.getState().setPendingLink({ payload: decoded.payload })
  return { kind: 'asked' }
}
