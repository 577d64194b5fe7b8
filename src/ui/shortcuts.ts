/**
 * Every keyboard shortcut of the workbench, in one list: the page-wide handler, the Monaco
 * actions (so they work with the focus inside an editor) and the help dialog all read it.
 */
import { create } from 'zustand'
import type { Playground } from '../store/playground'
import { editorErrors } from './editors/registry'
import { pushToast } from './toasts'

export interface Shortcut {
  /** Stable name; its help text is `shortcuts.<id>` in the UI resources. */
  id: string
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
      pushToast('warning', { key: 'banners.typeErrors', params: { count: errors.length, errors: errors.map((e) => `${e.file}:${e.line}:${e.column} — ${e.message.split('\n')[0]}`).join('; ') } })
  }
  void pg.run()
}

export const SHORTCUTS: readonly Shortcut[] = [
  {
    id: 'run',
    keys: 'Ctrl+Enter (⌘+Enter)',
    description: 'Run to the end (a replay: go to its last event)',
    scope: 'everywhere',
    matches: (e) => (e.ctrlKey || e.metaKey) && e.key === 'Enter',
    run: runWithTypeWarning,
    monacoId: 'toolstep.run',
  },
  { id: 'step', keys: 'F10', description: 'Step one phase forward', scope: 'everywhere', matches: (e) => e.key === 'F10' && !e.shiftKey, run: (pg) => void pg.step(), monacoId: 'toolstep.step' },
  { id: 'back', keys: 'Shift+F10', description: 'Step one phase back (nothing is re-run)', scope: 'everywhere', matches: (e) => e.key === 'F10' && e.shiftKey, run: (pg) => pg.back(), monacoId: 'toolstep.back' },
  { id: 'help', keys: '?', description: 'Show this list of shortcuts', scope: 'page', matches: (e) => e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey, run: openHelp },
  { id: 'upDown', keys: '↑ / ↓', description: 'Previous / next timeline row or conversation card', scope: 'timeline' },
  { id: 'page', keys: 'Page Up / Page Down', description: 'Ten rows back / forward in the phase timeline', scope: 'timeline' },
  { id: 'homeEnd', keys: 'Home / End', description: 'First / last event', scope: 'timeline' },
  { id: 'esc', keys: 'Esc', description: 'Close the open dialog or menu (a confirmation: deny every call)', scope: 'dialog' },
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
