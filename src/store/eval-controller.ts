/**
 * The Evals tab: runs the workspace's eval cases one after another, each in a fresh sandbox,
 * keeps each case's session, and opens one on the timeline when asked.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import { evalMetrics, runEvalCase, type CaseResult, type EvalMetrics } from '../core/evals'
import type { Workspace } from '../core/files'
import type { Phrase } from '../core/util'
import { storeMessage, storePhrase } from './messages'
import type { SessionEvent } from '../core/loop'
import { errorMessage } from '../core/util'
import type { Sandbox } from '../sandbox/sandbox-host'
import type { RunController } from './run-controller'

export interface EvalState {
  /** True while a suite runs. */
  running: boolean
  /** Cases finished / cases in the suite run. */
  progress: { done: number; total: number }
  /** Results so far, in case order. */
  results: CaseResult[]
  /** Metrics over `results`. */
  metrics: EvalMetrics | null
  /** Why the suite could not run (the code failed to load…), else `null`. */
  error: string | null
  /** `error` as a phrase of STORE_TEXT (the code's own errors stay a parameter, as they are). */
  errorPhrase?: Phrase | null
}

export interface EvalController {
  store: StoreApi<EvalState>
  /** Runs every case of the workspace; a second call while running does nothing. */
  runEvals(): Promise<void>
  /** Shows the session of case `id` on the timeline (false when it has not run). */
  openEvalCase(id: string): boolean
  dispose(): void
}

export function createEvalController(deps: { workspace(): Workspace; createSandbox(): Sandbox; runner: Pick<RunController, 'showLog'> }): EvalController {
  const store = createStore<EvalState>()(() => ({ running: false, progress: { done: 0, total: 0 }, results: [], metrics: null, error: null }))
  const sessions = new Map<string, { events: SessionEvent[]; workspace: Workspace }>()
  let generation = 0
  let box: Sandbox | null = null

  async function runEvals(): Promise<void> {
    if (store.getState().running) return
    const mine = ++generation
    const workspace = deps.workspace()
    const cases = workspace.cases ?? []
    sessions.clear()
    store.setState({ running: true, progress: { done: 0, total: cases.length }, results: [], metrics: null, error: null, errorPhrase: null })
    const results: CaseResult[] = []
    try {
      for (const evalCase of cases) {
        // A fresh sandbox per case, as `toolstep eval` does: module state never leaks between cases.
        box = deps.createSandbox()
        const loaded = await box.load({ tools: workspace.tools, model: workspace.model })
        if (mine !== generation) return
        if (!loaded.ok) {
          const errors = loaded.errors.map((e) => `${e.file}${e.line ? `:${e.line}` : ''}: ${e.message}`).join('; ')
          store.setState({ error: errors, errorPhrase: storePhrase('evalCodeErrors', { errors }) })
          return
        }
        const { result, events } = await runEvalCase(evalCase, { settings: workspace.settings, tools: loaded.tools, model: box, executor: box, router: box, summarizer: box, codeRunner: box })
        box.dispose()
        box = null
        if (mine !== generation) return
        sessions.set(evalCase.id, { events, workspace: { ...workspace, input: evalCase.input } })
        results.push(result)
        store.setState({ results: [...results], progress: { done: results.length, total: cases.length }, metrics: evalMetrics(results) })
      }
    } catch (error) {
      if (mine === generation) {
        const phrase = storePhrase('evalSandboxFailed', { error: errorMessage(error) })
        store.setState({ error: storeMessage([phrase]), errorPhrase: phrase })
      }
    } finally {
      box?.dispose()
      box = null
      if (mine === generation) store.setState({ running: false })
    }
  }

  return {
    store,
    runEvals,
    openEvalCase(id) {
      const session = sessions.get(id)
      if (!session) return false
      deps.runner.showLog(session.events, 'live', session.workspace, session.events.length - 1)
      return true
    },
    dispose() {
      generation += 1
      box?.dispose()
      box = null
    },
  }
}
