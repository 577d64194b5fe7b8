/**
 * Choosing an example or a lesson never silently discards edited code: when the workspace
 * differs from what was last loaded into it, the user is asked first, and the replacement can
 * be undone.
 */
import { create } from 'zustand'
import { findExample } from '../examples/index'
import { lessons, lessonWorkspace, solvedWorkspace } from '../lessons/index'
import type { Playground } from '../store/playground'
import { pushToast } from './toasts'
import type { UiText } from './i18n/text'

/** What an example or lesson replaces, as it was when loaded. */
interface Baseline {
  tools: string
  model: string
  input: string
}

/** A replacement waiting for the user's answer: what is loaded (shown by title) and how. */
interface PendingSwitch {
  title: UiText
  load: () => void
  options: ReplaceOptions
}

/** How a replacement is undone. */
export interface ReplaceOptions {
  /**
   * Undo also clears the timeline (default): an example's or a lesson's run came from the code
   * being undone. An imported file's session stays open.
   */
  resetOnUndo?: boolean
}

/** The replacement waiting for the user's answer, if any. */
export const useExampleSwitch = create<{ pending: PendingSwitch | null }>()(() => ({ pending: null }))

// The code as an example or lesson last loaded it. Null after a reload or a file: then the
// workspace counts as edited unless it equals the example it names or a lesson (or its solution).
let baseline: Baseline | null = null

const same = (a: Baseline, b: Baseline) => a.tools === b.tools && a.model === b.model && a.input === b.input

function isKnownWorkspace(now: Baseline, exampleId: string): boolean {
  const example = findExample(exampleId)
  if (example && same(now, example)) return true
  return lessons.some((lesson) => same(now, lessonWorkspace(lesson.workspace)) || same(now, lessonWorkspace(solvedWorkspace(lesson))))
}

function snapshot(pg: Playground): Baseline {
  const { tools, model, input } = pg.stores.workspace.getState()
  return { tools, model, input }
}

/** True when the code or input differ from what was last loaded (after a reload: from every example and lesson). */
export function workspaceEdited(pg: Playground): boolean {
  const now = snapshot(pg)
  return baseline ? !same(now, baseline) : !isKnownWorkspace(now, pg.stores.workspace.getState().exampleId)
}

/**
 * Runs `load` (which replaces the workspace), asking first when that would replace edits;
 * afterwards the loaded code is the new baseline and a replacement of edits can be undone.
 * Returns `'asked'` when `load` waits for the user's answer, `'replaced'` when it ran.
 */
export function replaceWorkspace(pg: Playground, title: UiText, load: () => void, options: ReplaceOptions = {}): 'replaced' | 'asked' {
  if (workspaceEdited(pg)) {
    useExampleSwitch.setState({ pending: { title, load, options } })
    return 'asked'
  }
  replace(pg, title, load, options)
  return 'replaced'
}

/** Loads example `id`, asking first when that would replace edits. */
export function chooseExample(pg: Playground, id: string): void {
  if (id === pg.stores.workspace.getState().exampleId && !workspaceEdited(pg)) return
  replaceWorkspace(pg, findExample(id) ? { key: `core.example.${id}.title` } : id, () => {
    pg.stores.workspace.getState().loadExample(id)
    pg.reset()
  })
}

/** Answers the pending question: replace (undoably) or keep the edits. */
export function answerExampleSwitch(pg: Playground, yes: boolean): void {
  const pending = useExampleSwitch.getState().pending
  useExampleSwitch.setState({ pending: null })
  if (yes && pending) replace(pg, pending.title, pending.load, pending.options)
}

function replace(pg: Playground, title: UiText, load: () => void, options: ReplaceOptions): void {
  const workspace = pg.stores.workspace
  const before = pg.currentWorkspace()
  const beforeId = workspace.getState().exampleId
  const beforeBaseline = baseline
  const edited = workspaceEdited(pg)
  load()
  baseline = snapshot(pg)
  if (!edited) return
  pushToast('notice', { key: 'banners.loadedReplaced', params: { title } }, {
    label: { key: 'banners.undo' },
    run: () => {
      workspace.getState().loadWorkspace(before)
      // loadWorkspace marks the workspace as from a file; it came from this example, edited.
      workspace.setState({ exampleId: beforeId })
      baseline = beforeBaseline
      if (options.resetOnUndo !== false) pg.reset()
    },
  })
}
