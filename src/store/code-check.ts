/**
 * Loads the workspace's code in a throw-away sandbox shortly after each edit, so syntax
 * and load errors show up in the editor before Run, and the system prompt preview
 * reflects the tools as they are now.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { ToolSpec } from '../core/tools'
import type { Sandbox } from '../sandbox/sandbox-host'
import type { Clock } from './clock'
import type { CrashGuard } from './crash-guard'
import type { CodeProblem, RunState } from './run-store'
import type { WorkspaceState } from './workspace-store'

export interface CodeCheckState {
  /** Tools as declared by the last tools.ts that loaded. */
  tools: ToolSpec[]
  checking: boolean
}

/** Delay after the last keystroke before the code is loaded, ms. */
export const CHECK_DEBOUNCE_MS = 600

/** What the code check works with. */
export interface CodeCheckDeps {
  workspace: StoreApi<WorkspaceState>
  run: StoreApi<RunState>
  guard: CrashGuard
  clock: Clock
  createSandbox(): Sandbox
}

/** The code-check slice and its controls. */
export interface CodeCheck {
  store: StoreApi<CodeCheckState>
  /** Loads the code now; resolves when this check (or a newer one) is done. */
  check(): Promise<void>
  /**
   * Re-checks {@link CHECK_DEBOUNCE_MS} after each change of tools.ts or model.ts; checks at once
   * too unless `initial` is false. Returns the function that stops watching.
   */
  watch(options?: { initial?: boolean }): () => void
}

/** A code check over the workspace slice; problems go to the run slice. */
export function createCodeCheck(deps: CodeCheckDeps): CodeCheck {
  const store = createStore<CodeCheckState>()(() => ({ tools: [], checking: false }))
  let latest = 0

  async function check(): Promise<void> {
    const mine = ++latest
    const { tools, model } = deps.workspace.getState()
    store.setState({ checking: true })
    const box = deps.createSandbox()
    const done = deps.guard.begin('check')
    try {
      const loaded = await box.load({ tools, model })
      if (mine !== latest) return
      const problems: CodeProblem[] = loaded.ok ? [] : loaded.errors
      store.setState({ tools: loaded.tools, checking: false })
      // A run that is loading reports its own problems.
      if (deps.run.getState().status !== 'loading') deps.run.setState({ problems })
    } catch {
      if (mine === latest) store.setState({ checking: false })
    } finally {
      done()
      box.dispose()
    }
  }

  return {
    store,
    check,
    watch({ initial = true } = {}) {
      let timer: unknown
      if (initial) void check()
      const unsubscribe = deps.workspace.subscribe((state, previous) => {
        if (state.tools === previous.tools && state.model === previous.model) return
        deps.clock.clearTimeout(timer)
        timer = deps.clock.setTimeout(() => void check(), CHECK_DEBOUNCE_MS)
      })
      return () => {
        deps.clock.clearTimeout(timer)
        unsubscribe()
      }
    },
  }
}
