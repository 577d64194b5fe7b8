/**
 * Choosing an example never silently discards edited code: when the workspace differs from
 * the example it came from, the user is asked first, and the replacement can be undone.
 */
import { create } from 'zustand'
import { findExample } from '../examples/index'
import type { Playground } from '../store/playground'
import { pushToast } from './toasts'

/** An example choice waiting for the user's answer. */
export const useExampleSwitch = create<{ pending: string | null }>()(() => ({ pending: null }))

/** True when the code or input differ from the example the workspace was loaded from (or it came from a file). */
export function workspaceEdited(pg: Playground): boolean {
  const s = pg.stores.workspace.getState()
  const example = findExample(s.exampleId)
  if (!example) return true
  return s.tools !== example.tools || s.model !== example.model || s.input !== example.input
}

/** Loads example `id`, asking first when that would replace edits. */
export function chooseExample(pg: Playground, id: string): void {
  if (id === pg.stores.workspace.getState().exampleId && !workspaceEdited(pg)) return
  if (workspaceEdited(pg)) useExampleSwitch.setState({ pending: id })
  else replaceWithExample(pg, id)
}

/** Answers the pending question: replace (undoably) or keep the edits. */
export function answerExampleSwitch(pg: Playground, replace: boolean): void {
  const id = useExampleSwitch.getState().pending
  useExampleSwitch.setState({ pending: null })
  if (replace && id) replaceWithExample(pg, id)
}

function replaceWithExample(pg: Playground, id: string): void {
  const workspace = pg.stores.workspace
  const before = pg.currentWorkspace()
  const beforeId = workspace.getState().exampleId
  const edited = workspaceEdited(pg)
  workspace.getState().loadExample(id)
  pg.reset()
  if (!edited) return
  pushToast('notice', `Loaded the example “${findExample(id)?.title ?? id}”; your edited code was replaced.`, {
    label: 'Undo',
    run: () => {
      workspace.getState().loadWorkspace(before)
      // loadWorkspace marks the workspace as from a file; it came from this example, edited.
      workspace.setState({ exampleId: beforeId })
      pg.reset()
    },
  })
}
