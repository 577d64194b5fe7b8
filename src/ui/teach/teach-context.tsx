/**
 * The teaching store handed down by a React context (src/main.tsx makes one over localStorage),
 * read with selectors like the playground's hooks.
 */
import { createContext, useContext, type ReactNode } from 'react'
import { useStore, type StoreApi } from 'zustand'
import { FONT_SIZE_MIN, type TeachState } from './teach-store'

const TeachContext = createContext<StoreApi<TeachState> | null>(null)

/** Makes `store` the teaching store of the components below. */
export function TeachProvider({ store, children }: { store: StoreApi<TeachState>; children: ReactNode }) {
  return <TeachContext.Provider value={store}>{children}</TeachContext.Provider>
}

/** The nearest teaching store; throws outside a {@link TeachProvider}. */
export function useTeachStore(): StoreApi<TeachState> {
  const store = useContext(TeachContext)
  if (!store) throw new Error('useTeachStore() needs a <TeachProvider> above it.')
  return store
}

export const useTeach = <T,>(selector: (state: TeachState) => T): T => useStore(useTeachStore(), selector)

const fallbackStore = { getState: () => ({ fontSize: FONT_SIZE_MIN }), subscribe: () => () => {} } as unknown as StoreApi<TeachState>

/** Text size as a factor (1–2), 1 outside a provider (so editors work on their own in tests). */
export function useFontScale(): number {
  const store = useContext(TeachContext) ?? fallbackStore
  return useStore(store, (s) => s.fontSize) / 100
}
