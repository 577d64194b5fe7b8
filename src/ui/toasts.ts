/**
 * Messages for the user that are not tied to one place: import outcomes, warnings on Run.
 * Shown in a strip in the page flow (never over the timeline or inspector); errors and
 * warnings stay until dismissed, notices fade.
 */
import { create } from 'zustand'
import type { UiText } from './i18n/text'

export type ToastKind = 'notice' | 'warning' | 'error'

/** A button on the toast, e.g. Undo. */
export interface ToastAction {
  label: UiText
  run(): void
}

export interface Toast {
  id: number
  kind: ToastKind
  message: UiText
  action?: ToastAction
}

/** How long a notice stays, ms (one with an action such as Undo: {@link ACTION_MS}). Errors and warnings stay until dismissed. */
export const NOTICE_MS = 6000
export const ACTION_MS = 20_000

export const useToasts = create<{ toasts: Toast[] }>()(() => ({ toasts: [] }))

let next = 1

/**
 * Shows a message in place of the previous one (one at a time: the newest is what the user just
 * did); a notice is dismissed by itself after {@link NOTICE_MS}. Returns its id.
 */
export function pushToast(kind: ToastKind, message: UiText, action?: ToastAction): number {
  const id = next++
  useToasts.setState({ toasts: [{ id, kind, message, ...(action ? { action } : {}) }] })
  if (kind === 'notice') setTimeout(() => dismissToast(id), action ? ACTION_MS : NOTICE_MS)
  return id
}

export function dismissToast(id: number): void {
  useToasts.setState((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }))
}
