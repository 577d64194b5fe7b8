/**
 * Calls to dangerous tools waiting for the user's approve / deny / edit. The runner's
 * confirm handler parks here until the dialog answers.
 */
import { create } from 'zustand'
import type { Decision } from '../core/loop/events'
import type { RunnableCall } from '../core/loop/machine'

export interface ConfirmState {
  pending: { calls: RunnableCall[]; resolve(decisions: Decision[]): void } | null
}

export const useConfirm = create<ConfirmState>()(() => ({ pending: null }))

/** The runner's confirm handler: shows the dialog and resolves with the user's decisions. */
export function askUser(calls: RunnableCall[]): Promise<Decision[]> {
  return new Promise((resolve) => {
    useConfirm.setState({
      pending: {
        calls,
        resolve: (decisions) => {
          useConfirm.setState({ pending: null })
          resolve(decisions)
        },
      },
    })
  })
}

/** Answers a pending request with `deny` for every call (when the run is reset or stopped). */
export function denyPending(): void {
  const pending = useConfirm.getState().pending
  pending?.resolve(pending.calls.map((c) => ({ callId: c.call.id, decision: 'deny' })))
}
