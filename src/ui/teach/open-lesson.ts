/**
 * Opening a lesson in the playground: its workspace replaces the editors' (as picking an example
 * does: asking first when that would replace edited code, and undoably), the timeline is
 * cleared, and the lesson becomes the chosen one. Nothing runs.
 */
import type { StoreApi } from 'zustand'
import { findLesson, lessonWorkspace, solvedWorkspace, type LessonLanguage } from '../../lessons/index'
import type { Playground } from '../../store/playground'
import type { TeachState } from './teach-store'
import { replaceWorkspace } from '../example-switch'

/**
 * Loads lesson `id` (or its challenge's solution when `solution`), its user message in `language`
 * (the UI's), after asking when the editors hold edits; false when there is no such lesson.
 */
export function openLesson(pg: Playground, teach: StoreApi<TeachState>, id: string, options: { solution?: boolean; language?: LessonLanguage } = {}): boolean {
  const lesson = findLesson(id)
  if (!lesson) return false
  replaceWorkspace(pg, { key: `lessons.${lesson.id}.title` }, () => {
    pg.stores.workspace.getState().loadWorkspace(lessonWorkspace(options.solution ? solvedWorkspace(lesson) : lesson.workspace, options.language))
    pg.reset()
    teach.getState().selectLesson(id)
    teach.getState().setFromLink(false)
  })
  return true
}
