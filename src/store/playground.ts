/**
 * One playground session: every slice of state (zustand vanilla stores, so it runs in Node
 * as well as in the page) and everything with a lifetime — the live runner and its sandbox,
 * the code-check sandboxes, the log-import workers, the debounce timer, the generation
 * counters that drop late replies. Nothing lives in module variables: the app makes one
 * playground (src/main.tsx) and hands it to React through a context; tests make their own
 * with the Node sandbox, an in-process import host, a manual clock and a memory storage.
 */
import type { StoreApi } from 'zustand/vanilla'
import type { Decision, PhaseRunner } from '../core/loop'
import type { Workspace } from '../core/files'
import type { LogImportHost } from '../sandbox/log-import-host'
import type { Sandbox } from '../sandbox/sandbox-host'
import { createStore } from 'zustand/vanilla'
import { createCatalogueStore, type CatalogueState } from './catalogue-store'
import { systemClock, type Clock } from './clock'
import { createCodeCheck, type CodeCheckState } from './code-check'
import { createConfirm, type ConfirmState } from './confirm-store'
import { createCrashGuard, type InterruptedWork } from './crash-guard'
import { exportOpenSession, type ExportFile, type ExportTarget } from './export-controller'
import type { CodeExportResult } from './code-export'
import { createEvalController, type EvalState } from './eval-controller'
import { createCompareController, type CompareController, type CompareState } from './compare-controller'
import { createForkController, type ForkController, type ForkState } from './fork-controller'
import { createImportController, type ImportController } from './import-controller'
import { createParseLabStore, type ParseLabState } from './parse-lab-store'
import { createReplayStore, type ReplayState } from './replay-store'
import { createRunController, type RunController } from './run-controller'
import { createRunStore, type RunState } from './run-store'
import { memoryStorage, type KeyValueStorage } from './storage'
import { createWorkspaceStore, currentWorkspace, type WorkspaceState } from './workspace-store'
import { writeMockModel } from '../core/files'
import { errorMessage, type Phrase } from '../core/util'
import { storeMessage, storePhrase } from './messages'
import { redactBaseUrl } from '../core/endpoint'
import { createModelSourceStore, endpointModelFor, type ModelSourceState } from './model-source-store'

/** What a playground is built from. */
export interface PlaygroundOptions {
  /** Makes a fresh sandbox for the user's code (one per run and one per code check). */
  createSandbox(): Sandbox
  /** Starts a log-import worker (one per imported file). */
  createImportHost(): LogImportHost
  /**
   * Computes the parse and validate phases of live runs (the browser's moves big turns to a
   * worker, `createPhaseOffload`); in this thread when absent. Disposed with the playground.
   */
  phases?: PhaseRunner & { dispose?(): void }
  /** Timers for the code-check debounce; defaults to the host's. */
  clock?: Clock
  /** Where the workspace and the crash-loop marker are saved; defaults to memory only. */
  storage?: KeyValueStorage
  /** The current time, written into the crash-loop marker. */
  now?(): Date
  /** The tab's storage (sessionStorage), used only for an API key the user asked to remember for this tab. */
  tabStorage?: KeyValueStorage
  /**
   * Puts an imported file's workspace into the editors by calling `load`, asking first when that
   * would replace edited code; `'asked'` when `load` waits for the answer. Defaults to loading at once.
   */
  replaceWorkspace?(title: string, load: () => void): 'replaced' | 'asked'
}

/** The session-level notices of the playground. */
export interface SessionState {
  /** Code that was running when the previous page ended (it never came back); not re-run until asked. */
  interrupted: InterruptedWork | null
}

/** Every slice of a playground's state. */
export interface PlaygroundStores {
  run: StoreApi<RunState>
  replay: StoreApi<ReplayState>
  workspace: StoreApi<WorkspaceState>
  codeCheck: StoreApi<CodeCheckState>
  confirm: StoreApi<ConfirmState>
  fork: StoreApi<ForkState>
  parseLab: StoreApi<ParseLabState>
  catalogue: StoreApi<CatalogueState>
  session: StoreApi<SessionState>
  modelSource: StoreApi<ModelSourceState>
  evals: StoreApi<EvalState>
  compare: StoreApi<CompareState>
}

/** A playground session: its state slices and every action the UI can take. */
export interface Playground
  extends Omit<RunController, 'dispose'>,
    Omit<ImportController, 'dispose'>,
    Omit<ForkController, 'store'>,
    Omit<CompareController, 'store' | 'dispose'> {
  stores: PlaygroundStores
  /** Answers the calls waiting in the confirm dialog. */
  answerConfirm(decisions: Decision[]): void
  /** The open session as a provider request body file, or `null` when nothing is open. */
  exportOpenSession(target: ExportTarget): ExportFile | null
  /** The workspace as a plain value (what the workspace file stores). */
  currentWorkspace(): Workspace
  /**
   * *Save as mock model*: makes model.ts a replay of the open live session's model outputs and
   * switches the Model to the mock script. Returns the generated source, or an error message
   * (nothing changed) when there is no live run with model output.
   */
  saveAsMock(): { ok: true; source: string } | { ok: false; error: string; phrase?: Phrase }
  /**
   * *Export → TypeScript loop*: the workspace as one `.ts` program asking the endpoint of the
   * Model bar (URL, model name, stream, timeout; never the key). Resolves with an error message
   * when tools.ts cannot be carried into one file.
   */
  exportCode(): Promise<CodeExportResult>
  /** *Export → Vitest test*: a test replaying the open live run's model outputs against the workspace's tools. */
  exportTest(): Promise<CodeExportResult>
  /**
   * Starts checking the code on each edit, and once now — unless the previous page ended while
   * code ran (see {@link SessionState.interrupted}). Returns the function that stops it.
   */
  start(): () => void
  /** Checks the code again after an interruption, and runs it again when a run was interrupted. */
  resumeInterrupted(): Promise<void>
  /** Forgets the interruption without running anything (the next edit checks the code again). */
  dismissInterrupted(): void
  /** Runs the workspace's eval cases (the Evals tab). */
  runEvals(): Promise<void>
  /** Opens an eval case's session on the timeline; false when it has not run. */
  openEvalCase(id: string): boolean
  /**
   * Tells the crash-loop guard that the page is being left on purpose (`pagehide`), so a reload
   * while code is being checked or run is not taken for a crash on the next load.
   */
  pageHidden(): void
  /** The page came back from the back/forward cache (`pageshow` with `persisted`). */
  pageShown(): void
  /** Stops every sandbox and worker. */
  dispose(): void
}

/** Makes a playground session. Nothing runs until `start()`, `run()`, `step()` or an import. */
export function createPlayground(options: PlaygroundOptions): Playground {
  const storage = options.storage ?? memoryStorage()
  const clock = options.clock ?? systemClock
  const guard = createCrashGuard(storage, options.now)

  const run = createRunStore()
  const replay = createReplayStore()
  const workspace = createWorkspaceStore(storage)
  const parseLab = createParseLabStore()
  const catalogue = createCatalogueStore()
  const session = createStore<SessionState>()(() => ({ interrupted: guard.interrupted }))
  const confirm = createConfirm()
  const modelSource = createModelSourceStore(options.tabStorage, storage)

  const runner = createRunController({ run, confirm, guard, createSandbox: options.createSandbox, ...(options.phases ? { phases: options.phases } : {}), workspace: () => currentWorkspace(workspace), endpointModel: () => endpointModelFor(modelSource.getState()) })
  const codeCheck = createCodeCheck({ workspace, run, guard, clock, createSandbox: options.createSandbox })
  const imports = createImportController({
    replay,
    workspace,
    runner,
    createImportHost: options.createImportHost,
    ...(options.replaceWorkspace ? { replaceWorkspace: options.replaceWorkspace } : {}),
  })
  const fork = createForkController({ run, replay, parseLab, runner, imports })
  const compare = createCompareController({ run, createImportHost: options.createImportHost })
  const evals = createEvalController({ workspace: () => currentWorkspace(workspace), createSandbox: options.createSandbox, runner })

  function forgetInterruption(): InterruptedWork | null {
    const { interrupted } = session.getState()
    if (interrupted) {
      guard.clearInterrupted()
      session.setState({ interrupted: null })
    }
    return interrupted
  }

  const { dispose: disposeRunner, ...runActions } = runner
  const { dispose: disposeImports, ...importActions } = imports
  return {
    ...runActions,
    ...importActions,
    forkAt: fork.forkAt,
    clearFork: fork.clearFork,
    backToLog: fork.backToLog,
    editAndContinue: fork.editAndContinue,
    stores: { run, replay, workspace, codeCheck: codeCheck.store, confirm: confirm.store, fork: fork.store, parseLab, catalogue, session, modelSource, evals: evals.store, compare: compare.store },
    compareFile: compare.compareFile,
    compareOpenSession: compare.compareOpenSession,
    runEvals: evals.runEvals,
    openEvalCase: evals.openEvalCase,
    answerConfirm: confirm.answer,
    exportOpenSession: (target) => exportOpenSession(run.getState(), replay.getState(), target),
    currentWorkspace: () => currentWorkspace(workspace),
    saveAsMock() {
      const { events, mode } = run.getState()
      if (mode !== 'live' || events.length === 0) {
        const phrase = storePhrase('saveMockNoRun')
        return { ok: false, error: storeMessage([phrase]), phrase }
      }
      const { source: from, config } = modelSource.getState()
      try {
        const source = writeMockModel(events, from === 'endpoint' ? `${config.model} at ${redactBaseUrl(config.baseUrl).url}` : 'a mock run')
        workspace.getState().setModel(source)
        modelSource.getState().setSource('mock')
        return { ok: true, source }
      } catch (error) {
        return { ok: false, error: errorMessage(error) }
      }
    },
    // The exporters (core/export and its parser) load on first use, as Toolstep's bundled code does.
    exportCode: () => {
      const input = currentWorkspace(workspace)
      const endpoint = modelSource.getState().config
      return import('./code-export').then((m) => m.exportLoopProgram(input, endpoint))
    },
    // The run's own workspace: the tools that produced the recorded results (the editor may have moved on).
    exportTest: () => {
      const state = run.getState()
      return import('./code-export').then((m) => m.exportLoopTest(state.workspace ?? currentWorkspace(workspace), state))
    },
    start: () => codeCheck.watch({ initial: session.getState().interrupted === null }),
    async resumeInterrupted() {
      const interrupted = forgetInterruption()
      await codeCheck.check()
      if (interrupted?.kind === 'run') await runner.run()
    },
    dismissInterrupted() {
      forgetInterruption()
    },
    pageHidden: () => guard.pageHidden(),
    pageShown: () => guard.pageShown(),
    dispose() {
      compare.dispose()
      evals.dispose()
      disposeRunner()
      options.phases?.dispose?.()
      disposeImports()
    },
  }
}
