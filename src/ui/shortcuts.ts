/**
 * Every keyboard shortcut of the workbench, in one list: the page-wide handler, the Monaco
 * actions (so they work with the focus inside an editor) and the help dialog all read it.
 */
import { create } from 'zustand'
import type { Playground } from '../store/playground'
import { editorErrors } from './editors/registry'
import { pushToast } from './toasts'

export interface Shortcut {
  /** Shown in the help dialog, e.g. `Ctrl+Enter`. */
  keys: string
  description: string
  /** Where it works. */
  scope: 'everywhere' | 'page' | 'timeline' | 'dialog'
  /** Matches a key event (page-wide handler); absent for keys handled by their own widget. */
  matches?(event: KeyboardEvent): boolean
  run?(pg: Playground): void
  /** Registered as a Monaco action with this id, so the editor does not swallow the key. */
  monacoId?: string
}

/** Whether the help dialog is open. */
export const useHelp = create<{ open: boolean }>()(() => ({ open: false }))
export const openHelp = () => useHelp.setState({ open: true })
export const closeHelp = () => useHelp.setState({ open: false })

/**
 * Run, with a warning when the type checker marks errors in the code: the sandbox runs
 * JavaScript, so a type error does not stop the run, but the user should know about it.
 */
export function runWithTypeWarning(pg: Playground): void {
  if (pg.stores.run.getState().mode === 'live') {
    const errors = editorErrors()
    if (errors.length > 0)
      pushToast('warning', `Type error${errors.length === 1 ? '' : 's'} in your code (the run started anyway): ${errors.map((e) => `${e.file}:${e.line}:${e.column} — ${e.message.split('\n')[0]}`).join('; ')}`)
  }
  void pg.run()
}

export const SHORTCUTS: readonly Shortcut[] = [
  {
    keys: 'Ctrl+Enter (⌘+Enter)',
    description: 'Run to the end (a replay: go to its last event)',
    scope: 'everywhere',
    matches: (e) => (e.ctrlKey || e.metaKey) && e.key === 'Enter',
    run: runWithTypeWarning,
    monacoId: 'toolstep.run',
  },
  { keys: 'F10', description: 'Step one phase forward', scope: 'everywhere', matches: (e) => e.key === 'F10' && !e.shiftKey, run: (pg) => void pg.step(), monacoId: 'toolstep.step' },
  { keys: 'Shift+F10', description: 'Step one phase back (nothing is re-run)', scope: 'everywhere', matches: (e) => e.key === 'F10' && e.shiftKey, run: (pg) => pg.back(), monacoId: 'toolstep.back' },
  { keys: '?', description: 'Show this list of shortcuts', scope: 'page', matches: (e) => e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey, run: openHelp },
  { keys: '↑ / ↓', description: 'Previous / next timeline row or conversation card', scope: 'timeline' },
  { keys: 'Page Up / Page Down', description: 'Ten rows back / forward in the phase timeline', scope: 'timeline' },
  { keys: 'Home / End', description: 'First / last event', scope: 'timeline' },
  { keys: 'Esc', description: 'Close the open dialog or menu (a confirmation: deny every call)', scope: 'dialog' },
]

/** True when the key is being typed into a text field, where `?` is a character, not a command. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || target.tagName === 'TEXTAREA' || (target.tagName === 'INPUT' && !['checkbox', 'radio', 'button'].includes((target as HTMLInputElement).type)) || target.closest('.monaco-editor') !== null
}

/** The page-wide key handler; returns the function that removes it. */
export function listenForShortcuts(pg: Playground): () => void {
  function onKey(event: KeyboardEvent) {
    for (const shortcut of SHORTCUTS) {
      if (!shortcut.matches?.(event) || !shortcut.run) continue
      if (shortcut.scope === 'page' && typing(event.target)) return
      // Inside Monaco the editor action runs instead (and stops the event there).
      if (shortcut.monacoId && event.target instanceof HTMLElement && event.target.closest('.monaco-editor')) return
      event.preventDefault()
      shortcut.run(pg)
      return
    }
  }
  window.addEventListener('keydown', onKey)
  return () => window.removeEventListener('keydown', onKey)
}
