/**
 * Choosing an example, a lesson or a share link's workspace never silently discards edited code:
 * when the workspace differs from what was last loaded into it, the user is asked first, and the
 * replacement can be undone — at once from the toast, and later (after a reload too) from the
 * *Restore my previous work* entry, as the replaced work is put aside in localStorage.
 */
import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'
import { readWorkspace, writeWorkspace, type Workspace } from '../core/files'
import { memoryStorage } from '../store/storage'
import { findExample } from '../examples/index'
import { LESSON_LANGUAGES, lessons, lessonWorkspace, solvedWorkspace } from '../lessons/index'
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
  /** Runs after the toast's Undo put the edits back (e.g. the lesson a link chose is let go). */
  undone?: () => void
}

/** The replacement waiting for the user's answer, if any. */
export const useExampleSwitch = create<{ pending: PendingSwitch | null }>()(() => ({ pending: null }))

/** Edited work that a replacement put aside: the workspace file's text, what it was, and what replaced it. */
export interface PutAside {
  /** The replaced workspace as a `toolstep.workspace` file (read back, and checked, on restore). */
  workspace: string
  exampleId: string
  /** What replaced it (an example's, a lesson's or a link's title). */
  title: UiText
}

/** Storage key of the work put aside by the last replacement of edited code. */
export const PUT_ASIDE_KEY = 'toolstep.replaced'

/** The last edited work a replacement put aside, until restored or replaced by newer; kept across reloads. */
export const usePutAside = create<{ putAside: PutAside | null }>()(
  persist(() => ({ putAside: null as PutAside | null }), {
    name: PUT_ASIDE_KEY,
    version: 1,
    // Unit tests run without a browser; there the work is kept in memory.
    storage: createJSONStorage(() => (typeof localStorage === 'undefined' ? memoryStorage() : localStorage)),
    // A hand-edited value is dropped rather than offered.
    merge: (persisted, current) => {
      const p = (typeof persisted === 'object' && persisted !== null ? persisted : {}) as { putAside?: Partial<PutAside> | null }
      const a = p.putAside
      const valid = a && typeof a.workspace === 'string' && typeof a.exampleId === 'string' && (typeof a.title === 'string' || (typeof a.title === 'object' && a.title !== null))
      return { ...current, putAside: valid ? (a as PutAside) : null }
    },
  }),
)

/**
 * Loads the work put aside back into the editors (clearing the timeline: its run came from the
 * other code) and forgets it. False, and nothing changed, when there is none or it no longer reads.
 */
export function restorePutAside(pg: Playground): boolean {
  const aside = usePutAside.getState().putAside
  if (!aside) return false
  const read = readWorkspace(aside.workspace)
  usePutAside.setState({ putAside: null })
  if (!read.ok) return false
  restore(pg, read.value, aside.exampleId, null)
  pg.reset()
  return true
}

/** `workspace` back in the editors, named as `exampleId` (loadWorkspace alone would mark it as from a file). */
function restore(pg: Playground, workspace: Workspace, exampleId: string, previous: Baseline | null): void {
  pg.stores.workspace.getState().loadWorkspace(workspace)
  pg.stores.workspace.setState({ exampleId })
  baseline = previous
}

// The code as an example or lesson last loaded it. Null after a reload or a file: then the
// workspace counts as edited unless it equals the example it names or a lesson (or its solution).
let baseline: Baseline | null = null

const same = (a: Baseline, b: Baseline) => a.tools === b.tools && a.model === b.model && a.input === b.input

function isKnownWorkspace(now: Baseline, exampleId: string): boolean {
  const example = findExample(exampleId)
  if (example && same(now, example)) return true
  return lessons.some((lesson) => LESSON_LANGUAGES.some((language) => same(now, lessonWorkspace(lesson.workspace, language)) || same(now, lessonWorkspace(solvedWorkspace(lesson), language))))
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

/**
 * Replaces the workspace after the user already said yes elsewhere (the share link's own
 * question): edits are put aside and the replacement can be undone, as with
 * {@link replaceWorkspace}. `options.undone` runs after an undo from the toast.
 */
export function replaceAfterAsking(pg: Playground, title: UiText, load: () => void, options: ReplaceOptions = {}): void {
  replace(pg, title, load, options)
}

/** Answers the pending question: replace (undoably) or keep the edits. */
export function answerExampleSwitch(pg: Playground, yes: boolean): void {
  const pending = useExampleSwitch.getState().pending
  useExampleSwitch.setState({ pending: null })
  if (yes && pending) replace(pg, pending.title, pending.load, pending.options)
}

function replace(pg: Playground, title: UiText, load: () => void, options: ReplaceOptions): void {
  const before = pg.currentWorkspace()
  const beforeId = pg.stores.workspace.getState().exampleId
  const beforeBaseline = baseline
  const edited = workspaceEdited(pg)
  load()
  baseline = snapshot(pg)
  if (!edited) return
  // Kept beyond the toast, and beyond a reload: the More menu offers it back until newer work is put aside.
  usePutAside.setState({ putAside: { workspace: writeWorkspace(before), exampleId: beforeId, title } })
  pushToast('notice', { key: 'banners.loadedReplaced', params: { title } }, {
    label: { key: 'banners.undo' },
    run: () => {
      usePutAside.setState({ putAside: null })
      // loadWorkspace marks the workspace as from a file; it came from this example, edited.
      restore(pg, before, beforeId, beforeBaseline)
      if (options.resetOnUndo !== false) pg.reset()
      options.undone?.()
    },
  })
}
