/** Which entry of the anomaly catalogue is shown in its dialog, if any. */
import { createStore, type StoreApi } from 'zustand/vanilla'

export interface CatalogueState {
  /** The anomaly code to show, `null` when the dialog is closed. */
  code: string | null
  /** Opens the catalogue at `code`. */
  open(code: string): void
  close(): void
}

/** A fresh catalogue slice (closed). */
export function createCatalogueStore(): StoreApi<CatalogueState> {
  return createStore<CatalogueState>()((set) => ({
    code: null,
    open: (code) => set({ code }),
    close: () => set({ code: null }),
  }))
}
