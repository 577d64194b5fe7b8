/**
 * Calls to dangerous tools waiting for the user's approve / deny / edit. The runner's
 * confirm handler parks here until the dialog answers. The state holds only the calls; the
 * promise's resolver stays in this closure, so state stays plain data.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { Decision, RunnableCall } from '../core/loop'

export interface ConfirmState {
  /** The calls waiting for a decision, or `null` when nothing is asked. */
  pending: { calls: RunnableCall[] } | null
}

/** The confirm slice and its handlers. */
export interface ConfirmSlice {
  store: StoreApi<ConfirmState>
  /** The runner's confirm handler: shows the dialog and resolves with the user's decisions. */
  ask(calls: RunnableCall[]): Promise<Decision[]>
  /** Answers the pending request (the dialog's submit); ignored when nothing is pending. */
  answer(decisions: Decision[]): void
  /** Answers a pending request with `deny` for every call (when the run is reset or stopped). */
  denyPending(): void
}

/** A fresh confirm slice with nothing pending. */
export function createConfirm(): ConfirmSlice {
  const store = createStore<ConfirmState>()(() => ({ pending: null }))
  let resolver: ((decisions: Decision[]) => void) | null = null

  function answer(decisions: Decision[]): void {
    const resolve = resolver
    resolver = null
    store.setState({ pending: null })
    resolve?.(decisions)
  }

  return {
    store,
    ask: (calls) =>
      new Promise((resolve) => {
        // A request still open (it should not be) is denied rather than left hanging.
        if (resolver) answer(store.getState().pending?.calls.map((c) => ({ callId: c.call.id, decision: 'deny' })) ?? [])
        resolver = resolve
        store.setState({ pending: { calls } })
      }),
    answer,
    denyPending() {
      const pending = store.getState().pending
      if (pending) answer(pending.calls.map((c) => ({ callId: c.call.id, decision: 'deny' })))
    },
  }
}
