/** What the Parse lab is parsing; other views can send a raw output there. */
import { createStore, type StoreApi } from 'zustand/vanilla'
import { getProtocol } from '../core/protocols'

export interface ParseLabState {
  view: 'loop' | 'parse' | 'diff' | 'evals' | 'compare'
  protocolId: string
  raw: string
  setView(view: 'loop' | 'parse' | 'diff' | 'evals' | 'compare'): void
  setProtocol(id: string): void
  setRaw(raw: string): void
  /** Opens the Parse lab on `raw`, parsed as `protocolId`. */
  open(raw: string, protocolId: string): void
}

/** A fresh Parse lab slice (Loop view, `auto`, the xml-tag example). */
export function createParseLabStore(): StoreApi<ParseLabState> {
  return createStore<ParseLabState>()((set) => ({
    view: 'loop',
    protocolId: 'auto',
    raw: getProtocol('xml-tag')?.example ?? '',
    setView: (view) => set({ view }),
    setProtocol: (protocolId) => set({ protocolId }),
    setRaw: (raw) => set({ raw }),
    open: (raw, protocolId) => set({ raw, protocolId: getProtocol(protocolId) ? protocolId : 'auto', view: 'parse' }),
  }))
}
