/**
 * Choosing an example never silently discards edited code: when the workspace differs from
 * the example it came from, the user is asked first, and the replacement can be undone.
 */
import { create } from 'zustand'
import { findExample } from '../examples/index'
import { reset } from '../store/run-controller'
import { currentWorkspace, useWorkspace } from '../store/workspace-store'
import { pushToast } from './toasts'

/** An example choice waiting for the user's answer. */
export const useExampleSwitch = create<{ pending: string | null }>()(() => ({ pending: null }))

/** True when the code or input differ from the example the workspace was loaded from (or it came from a file). */
export function workspaceEdited(): boolean {
  const s = useWorkspace.getState()
  const example = findExample(s.exampleId)
  if (!example) return true
  return s.tools !== example.tools || s.model !== example.model || s.input !== example.input
}

/** Loads example `id`, asking first when that would replace edits. */
export function chooseExample(id: string): void {
  if (id === useWorkspace.getState().exampleId && !workspaceEdited()) return
  if (workspaceEdited()) useExampleSwitch.setState({ pending: id })
  else replaceWithExample(id)
}

/** Answers the pending question: replace (undoably) or keep the edits. */
export function answerExampleSwitch(replace: boolean): void {
  const id = useExampleSwitch.getState().pending
  useExampleSwitch.setState({ pending: null })
  if (replace && id) replaceWithExample(id)
}

function replaceWithExample(id: string): void {
  const before = currentWorkspace()
  const beforeId = useWorkspace.getState().exampleId
  const edited = workspaceEdited()
  useWorkspace.getState().loadExample(id)
  reset()
  if (!edited) return
  pushToast('notice', `Loaded the example “${findExample(id)?.title ?? id}”; your edited code was replaced.`, {
    label: 'Undo',
    run: () => {
      useWorkspace.getState().loadWorkspace(before)
      // loadWorkspace marks the workspace as from a file; it came from this example, edited.
      useWorkspace.setState({ exampleId: beforeId })
      reset()
    },
  })
}
