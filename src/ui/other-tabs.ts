/**
 * Notices other tabs of the app on the same origin: they share the saved workspace, so an edit
 * in one overwrites the other's on the next save. Each tab announces itself on a
 * BroadcastChannel and answers announcements; a `storage` event says the other tab saved.
 */
import { create } from 'zustand'
import { WORKSPACE_KEY } from '../store/workspace-store'


export interface OtherTabsState {
  /** Another tab of the app is open. */
  present: boolean
  /** The other tab saved its workspace since this one loaded (it overwrote what this tab saved). */
  overwritten: boolean
  dismissed: boolean
}

export const useOtherTabs = create<OtherTabsState>()(() => ({ present: false, overwritten: false, dismissed: false }))

type Message = { type: 'hello' | 'here' | 'bye'; id: string }

/** Starts listening; returns the function that stops (and tells the others this tab left). */
export function watchOtherTabs(): () => void {
  const id = Math.random().toString(36).slice(2)
  const peers = new Set<string>()
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('toolstep.tabs')
  const update = () => useOtherTabs.setState({ present: peers.size > 0 })
  if (channel) {
    channel.onmessage = (event: MessageEvent<Message>) => {
      const message = event.data
      if (!message || message.id === id) return
      if (message.type === 'bye') peers.delete(message.id)
      else {
        peers.add(message.id)
        if (message.type === 'hello') channel.postMessage({ type: 'here', id } satisfies Message)
        useOtherTabs.setState({ dismissed: false })
      }
      update()
    }
    channel.postMessage({ type: 'hello', id } satisfies Message)
  }
  const onStorage = (event: StorageEvent) => {
    if (event.key === WORKSPACE_KEY) useOtherTabs.setState({ overwritten: true, present: true, dismissed: false })
  }
  window.addEventListener('storage', onStorage)
  const onUnload = () => channel?.postMessage({ type: 'bye', id } satisfies Message)
  window.addEventListener('pagehide', onUnload)
  return () => {
    onUnload()
    channel?.close()
    window.removeEventListener('storage', onStorage)
    window.removeEventListener('pagehide', onUnload)
  }
}
