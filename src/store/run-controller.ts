/**
 * Run, Step, Back and Reset for the playground. Owns the live `LoopRunner` and the
 * sandbox that runs the user's code; the UI calls these functions and reads `useRun`.
 */
import { LoopRunner } from '../core/loop/runner'
import { runInitFor } from '../core/loop/start'
import type { SessionEvent } from '../core/loop/events'
import type { Workspace } from '../core/files/workspace-file'
import type { Message } from '../core/messages'
import { createBrowserSandbox, type Sandbox } from '../sandbox/browser-sandbox'
import { askUser, denyPending } from './confirm-store'
import { currentWorkspace } from './workspace-store'
import { useRun } from './run-store'

let runner: LoopRunner | null = null
let sandbox: Sandbox | null = null
/** Bumped by reset so that late results of a discarded run are ignored. */
let generation = 0

function dispose(): void {
  denyPending()
  runner?.abort()
  runner = null
  sandbox?.dispose()
  sandbox = null
}

/** Clears the timeline and stops any live run. */
export function reset(): void {
  generation += 1
  dispose()
  useRun.getState().reset()
}

/**
 * Starts a fresh live run of the workspace: loads the code into a new sandbox and logs
 * `session.started`. `history`, when given, replaces the system prompt and user input (a fork
 * continues a logged conversation from its messages).
 */
async function startRun(workspace: Workspace, history?: Message[]): Promise<boolean> {
  reset()
  const mine = generation
  useRun.setState({ status: 'loading', workspace, mode: 'live' })
  const box = createBrowserSandbox()
  let loaded: Awaited<ReturnType<Sandbox['load']>>
  try {
    loaded = await box.load({ tools: workspace.tools, model: workspace.model })
  } catch (error) {
    // Only when the worker itself cannot start; user-code errors come back in `loaded.errors`.
    box.dispose()
    if (mine === generation) useRun.setState({ status: 'idle', problems: [{ file: 'sandbox', message: `The sandbox could not start: ${error instanceof Error ? error.message : String(error)}` }] })
    return false
  }
  if (mine !== generation) {
    box.dispose()
    return false
  }
  if (!loaded.ok) {
    box.dispose()
    useRun.setState({ status: 'idle', problems: loaded.errors })
    return false
  }
  sandbox = box
  runner = new LoopRunner({
    model: box,
    executor: box,
    router: box,
    summarizer: box,
    codeRunner: box,
    confirm: askUser,
    onEvent: () => {
      if (mine !== generation || !runner) return
      const events: SessionEvent[] = runner.events
      useRun.setState({ events, cursor: events.length - 1, status: runner.stopped ? 'stopped' : useRun.getState().status })
    },
  })
  const init = runInitFor(workspace, loaded.tools)
  runner.start(history ? { ...init, messages: history } : init)
  useRun.setState({ status: 'idle' })
  return true
}

function needsFreshRun(): boolean {
  const s = useRun.getState()
  return s.mode !== 'live' || !runner || runner.stopped
}

/** Runs to the end: continues the current live run, or starts a new one. */
export async function run(): Promise<void> {
  const s = useRun.getState()
  if (s.status === 'loading' || s.status === 'running') return
  // A replay is played, not re-run: go to its last event.
  if (s.mode === 'replay') {
    s.setCursor(s.events.length - 1)
    return
  }
  if (needsFreshRun() && !(await startRun(currentWorkspace()))) return
  const mine = generation
  useRun.setState({ status: 'running' })
  while (runner && !runner.stopped && mine === generation) await runner.step()
  if (mine === generation) useRun.setState({ status: 'stopped', cursor: useRun.getState().events.length - 1 })
}

/**
 * Continues a conversation live from `history` with the current tools and mock model, and runs
 * it to the end. Resolves false when the code could not be loaded.
 */
export async function runFrom(history: Message[]): Promise<boolean> {
  if (!(await startRun(currentWorkspace(), history))) return false
  await run()
  return true
}

/** Advances one phase: moves the cursor forward through logged events, or performs the next phase. */
export async function step(): Promise<void> {
  const s = useRun.getState()
  if (s.status === 'loading' || s.status === 'running') return
  if (s.cursor < s.events.length - 1) {
    s.setCursor(s.cursor + 1)
    return
  }
  if (s.mode === 'replay') return
  // At the end of a finished run, Step does nothing: Run starts a new one.
  if (runner?.stopped || (s.events.length > 0 && !runner)) return
  if (needsFreshRun()) {
    await startRun(currentWorkspace())
    return
  }
  const mine = generation
  useRun.setState({ status: 'running' })
  await runner?.step()
  if (mine === generation) useRun.setState({ status: runner?.stopped ? 'stopped' : 'idle' })
}

/** Moves the cursor back one phase (time travel; nothing is re-run). */
export function back(): void {
  const s = useRun.getState()
  if (s.cursor > 0) s.setCursor(s.cursor - 1)
}

/** Stops a live run in progress with stop reason `aborted`. */
export function stop(): void {
  denyPending()
  runner?.abort()
}

/** Shows a finished log (a re-imported session or a replayed conversation); no code runs. */
export function showLog(events: SessionEvent[], mode: 'live' | 'replay', workspace: Workspace | null, cursor: number): void {
  reset()
  useRun.setState({ events, cursor: Math.min(cursor, events.length - 1), status: 'stopped', mode, workspace })
}
