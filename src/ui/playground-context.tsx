/**
 * The playground the UI works on, handed down by a React context (src/main.tsx makes the
 * browser one). The `use*` hooks read one slice with a selector, like zustand's bound hooks.
 */
import { createContext, useContext, type ReactNode } from 'react'
import { useStore } from 'zustand'
import type { CatalogueState } from '../store/catalogue-store'
import type { CodeCheckState } from '../store/code-check'
import type { ConfirmState } from '../store/confirm-store'
import type { EvalState } from '../store/eval-controller'
import type { ForkState } from '../store/fork-controller'
import type { ParseLabState } from '../store/parse-lab-store'
import type { Playground, SessionState } from '../store/playground'
import type { ReplayState } from '../store/replay-store'
import type { RunState } from '../store/run-store'
import type { WorkspaceState } from '../store/workspace-store'

const PlaygroundContext = createContext<Playground | null>(null)

/** Makes `playground` the one the components below use. */
export function PlaygroundProvider({ playground, children }: { playground: Playground; children: ReactNode }) {
  return <PlaygroundContext.Provider value={playground}>{children}</PlaygroundContext.Provider>
}

/** The playground of the nearest {@link PlaygroundProvider}; throws outside one. */
export function usePlayground(): Playground {
  const playground = useContext(PlaygroundContext)
  if (!playground) throw new Error('usePlayground() needs a <PlaygroundProvider> above it.')
  return playground
}

export const useRun = <T,>(selector: (state: RunState) => T): T => useStore(usePlayground().stores.run, selector)
export const useReplay = <T,>(selector: (state: ReplayState) => T): T => useStore(usePlayground().stores.replay, selector)
export const useWorkspace = <T,>(selector: (state: WorkspaceState) => T): T => useStore(usePlayground().stores.workspace, selector)
export const useCodeCheck = <T,>(selector: (state: CodeCheckState) => T): T => useStore(usePlayground().stores.codeCheck, selector)
export const useConfirm = <T,>(selector: (state: ConfirmState) => T): T => useStore(usePlayground().stores.confirm, selector)
export const useFork = <T,>(selector: (state: ForkState) => T): T => useStore(usePlayground().stores.fork, selector)
export const useParseLab = <T,>(selector: (state: ParseLabState) => T): T => useStore(usePlayground().stores.parseLab, selector)
export const useCatalogue = <T,>(selector: (state: CatalogueState) => T): T => useStore(usePlayground().stores.catalogue, selector)
export const useSession = <T,>(selector: (state: SessionState) => T): T => useStore(usePlayground().stores.session, selector)
export const useEvals = <T,>(selector: (state: EvalState) => T): T => useStore(usePlayground().stores.evals, selector)
