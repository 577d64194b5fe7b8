/**
 * Loads the workspace's code in a throw-away sandbox shortly after each edit, so syntax
 * and load errors show up in the editor before Run, and the system prompt preview
 * reflects the tools as they are now.
 */
import { create } from 'zustand'
import type { ToolSpec } from '../core/tools/types'
import { createBrowserSandbox } from '../sandbox/browser-sandbox'
import { useRun, type CodeProblem } from './run-store'
import { useWorkspace } from './workspace-store'

export interface CodeCheckState {
  /** Tools as declared by the last tools.ts that loaded. */
  tools: ToolSpec[]
  checking: boolean
}

export const useCodeCheck = create<CodeCheckState>()(() => ({ tools: [], checking: false }))

/** Delay after the last keystroke before the code is loaded, ms. */
const DEBOUNCE_MS = 600
let timer: ReturnType<typeof setTimeout> | undefined
let latest = 0

async function check(): Promise<void> {
  const mine = ++latest
  const { tools, model } = useWorkspace.getState()
  useCodeCheck.setState({ checking: true })
  const box = createBrowserSandbox()
  try {
    const loaded = await box.load({ tools, model })
    if (mine !== latest) return
    const problems: CodeProblem[] = loaded.ok ? [] : loaded.errors
    useCodeCheck.setState({ tools: loaded.tools, checking: false })
    // A run that is loading reports its own problems.
    if (useRun.getState().status !== 'loading') useRun.setState({ problems })
  } catch {
    if (mine === latest) useCodeCheck.setState({ checking: false })
  } finally {
    box.dispose()
  }
}

/** Starts watching the workspace sources; returns the unsubscribe function. */
export function watchCode(): () => void {
  void check()
  const unsubscribe = useWorkspace.subscribe((state, previous) => {
    if (state.tools === previous.tools && state.model === previous.model) return
    clearTimeout(timer)
    timer = setTimeout(() => void check(), DEBOUNCE_MS)
  })
  return () => {
    clearTimeout(timer)
    unsubscribe()
  }
}
