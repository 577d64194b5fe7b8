/** Which entry of the anomaly catalogue is shown in its dialog, if any. */
import { create } from 'zustand'

export interface CatalogueState {
  /** The anomaly code to show, `null` when the dialog is closed. */
  code: string | null
  /** Opens the catalogue at `code`. */
  open(code: string): void
  close(): void
}

export const useCatalogue = create<CatalogueState>()((set) => ({
  code: null,
  open: (code) => set({ code }),
  close: () => set({ code: null }),
}))
