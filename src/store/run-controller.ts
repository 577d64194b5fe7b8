/**
 * Run, Step, Back and Reset for the playground. Owns the live `LoopRunner` and the sandbox
 * that runs the user's code (one controller per playground); the UI calls these functions
 * and reads the run slice.
 */
import type { StoreApi } from 'zustand/vanilla'
import { DEFAULT_MAX_STEPS, LoopRunner, loopPhrase, nextTask, runInitFor, type PhaseRunner, type RunInit, type SessionEvent } from '../core/loop'
import type { Workspace } from '../core/files'
import type { Message } from '../core/messages'
import type { Sandbox } from '../sandbox/sandbox-host'
import type { ConfirmSlice } from './confirm-store'
import type { CrashGuard } from './crash-guard'
import type { RunState } from './run-store'
import { errorMessage } from '../core/util'
import type { EndpointModel } from '../core/endpoint'
import { StoreError, storeMessage, storePhrase } from './messages'
import { armBreakpoints, firstHitInLog, runUntilBreak, type ArmedBreakpoint, type BreakHit, type EditEvent } from '../core/debug'

/** What a run controller works with. */
export interface RunControllerDeps {
  run: StoreApi<RunState>
  confirm: ConfirmSlice
  guard: CrashGuard
  /** Makes a fresh sandbox for each run. */
  createSandbox(): Sandbox
  /** The workspace to run now. */
  workspace(): Workspace
  /**
   * The endpoint model for a new run, or `null` to ask the workspace's mock script. Throws an
   * Error naming a missing setting.
   */
  endpointModel?(): EndpointModel | null
  /** Computes the parse and validate phases (a worker for big turns); in this thread when absent. */
  phases?: PhaseRunner
}

/** Run, Step, Back, Reset, Stop and showing a finished log. */
export interface RunController {
  /**
   * Runs to the end or to the first enabled breakpoint that hits: continues the current live
   * run (past the breakpoint it paused at), or starts a new one. In a replay, moves the cursor
   * to the first hit after it, or to the last event. Asked for while the code loads, it is
   * queued: one action waits (the latest Step or Run wins) and is done once the load ends; a
   * Reset, a failed load or a change of the workspace in the meantime cancels it. The promise
   * of a queued call resolves at once.
   */
  run(): Promise<void>
  /**
   * Continues a conversation live from `history` with the current tools and mock model, and
   * runs it to the end. Resolves false when the code could not be loaded.
   */
  runFrom(history: Message[]): Promise<boolean>
  /**
   * Edit and continue: a new live run keeps `prefix` (the open session's first events), appends
   * `edit` and runs on with the current tools and model, to the end or the first breakpoint.
   * `replayed`: the prefix is a replay's, so its `session.started` is replaced by a live one
   * (the replay's wire format and leading messages; the workspace's tools and settings; the
   * workspace's max steps counted from the edited turn). Resolves false when the code could
   * not be loaded.
   */
  continueAfterEdit(prefix: SessionEvent[], edit: EditEvent, replayed: boolean): Promise<boolean>
  /**
   * Advances one phase: moves the cursor forward through logged events, or performs the next phase.
   * Asked for while the code loads (the first Step's sandbox is starting), it is queued and done
   * once the load ends; so is Run (see {@link RunController.run}).
   */
  step(): Promise<void>
  /** Moves the cursor back one phase (time travel; nothing is re-run). */
  back(): void
  /** Clears the timeline and stops any live run; late replies of the old run are ignored. */
  reset(): void
  /** Stops a live run in progress with stop reason `aborted`. */
  stop(): void
  /** Shows a finished log (a re-imported session or a replayed conversation); no code runs. */
  showLog(events: SessionEvent[], mode: 'live' | 'replay', workspace: Workspace | null, cursor: number): void
  /**
   * Shows a live run that was paused when the page was left (not stopped), as paused: the next
   * Step or Run loads `workspace` (the code the run started from) into a fresh sandbox and goes
   * on from the end of `events`. When that code no longer loads, the problem says so and the
   * following Run starts the run again. A log that has stopped is shown as with `showLog`.
   */
  restoreRun(events: SessionEvent[], workspace: Workspace | null, cursor: number, breakHit: BreakHit | null): void
  /** Stops everything (the playground is closed). */
  dispose(): void
}

/** A run controller over the run slice. */
export function createRunController(deps: RunControllerDeps): RunController {
  const { run: store, confirm, guard } = deps
  let runner: LoopRunner | null = null
  let sandbox: Sandbox | null = null
  /** The endpoint of the live run, so Stop can cancel its call in flight. */
  let endpoint: EndpointModel | null = null
  /** Bumped by reset so that late results of a discarded run are ignored. */
  let generation = 0
  /** The run on screen was restored after a reload and has no runner yet: Step or Run reattaches one. */
  let restored = false
  /**
   * The Step or Run asked for while the code loaded (a key pressed right after opening a lesson),
   * with the workspace it was asked for: done when the load ends, unless that workspace changed.
   */
  let queued: { action: 'step' | 'run'; workspace: string } | null = null

  /** Queues `action` when the code is loading; true when it was queued. */
  function queueWhileLoading(action: 'step' | 'run'): boolean {
    if (store.getState().status !== 'loading') return false
    queued = { action, workspace: JSON.stringify(deps.workspace()) }
    return true
  }

  /** Does the queued action, if any (after a load ended), unless the workspace changed since it was asked for. */
  async function drain(): Promise<void> {
    const next = queued
    queued = null
    if (!next || store.getState().status === 'loading' || next.workspace !== JSON.stringify(deps.workspace())) return
    await (next.action === 'step' ? step() : run())
  }

  function dispose(): void {
    confirm.denyPending()
    runner?.abort()
    runner = null
    endpoint?.abort()
    endpoint = null
    sandbox?.dispose()
    sandbox = null
  }

  function reset(): void {
    generation += 1
    restored = false
    queued = null
    dispose()
    store.getState().reset()
  }

  /**
   * Starts a fresh live run of the workspace: loads the code into a new sandbox and logs
   * `session.started` — or what `begin` logs instead (a run continued from other events).
   */
  async function startRun(workspace: Workspace, begin: (runner: LoopRunner, init: RunInit) => void = (r, init) => void r.start(init)): Promise<boolean> {
    reset()
    const mine = generation
    let chosen: EndpointModel | null
    try {
      chosen = deps.endpointModel?.() ?? null
    } catch (error) {
      store.setState({ status: 'idle', problems: [{ file: 'model', message: errorMessage(error), ...(error instanceof StoreError ? { phrase: error.phrase } : {}) }] })
      return false
    }
    store.setState({ status: 'loading', workspace, mode: 'live' })
    const box = deps.createSandbox()
    let loaded: Awaited<ReturnType<Sandbox['load']>>
    const done = guard.begin('run')
    try {
      loaded = await box.load({ tools: workspace.tools, model: workspace.model })
    } catch (error) {
      // Only when the worker itself cannot start; user-code errors come back in `loaded.errors`.
      box.dispose()
      if (mine === generation) {
        // The same words as an eval's (evalSandboxFailed); the worker's own error stays as it said it.
        const phrase = storePhrase('evalSandboxFailed', { error: errorMessage(error) })
        store.setState({ status: 'idle', problems: [{ file: 'sandbox', message: storeMessage([phrase]), phrase }] })
      }
      return false
    } finally {
      done()
    }
    if (mine !== generation) {
      box.dispose()
      return false
    }
    if (!loaded.ok) {
      box.dispose()
      store.setState({ status: 'idle', problems: loaded.errors })
      return false
    }
    sandbox = box
    endpoint = chosen
    const current = new LoopRunner({
      model: chosen ?? box,
      executor: box,
      router: box,
      summarizer: box,
      codeRunner: box,
      confirm: (calls) => confirm.ask(calls),
      ...(deps.phases ? { phases: deps.phases } : {}),
      // The page paints and answers input between slices of a big turn's results.
      pause: nextTask,
      // A phase appends its events in one go (100 000 tool.finished for a big turn): the log is
      // copied and the store told once per phase, not once per event (which was O(n²)).
      onEvent: () => {
        if (flushQueued) return
        flushQueued = true
        queueMicrotask(() => {
          flushQueued = false
          if (mine !== generation || runner !== current) return
          const events: SessionEvent[] = current.events
          const now = store.getState()
          store.setState({ events, cursor: now.held ? now.cursor : events.length - 1, status: current.stopped ? 'stopped' : now.status })
        })
      },
    })
    let flushQueued = false
    runner = current
    try {
      begin(current, runInitFor(workspace, loaded.tools))
    } catch (error) {
      dispose()
      store.setState({ status: 'idle', problems: [{ file: 'session', message: errorMessage(error) }] })
      return false
    }
    store.setState({ status: 'idle' })
    return true
  }

  /**
   * Gives the run restored after a reload its runner again, from the code it started from.
   * False (and a problem that says so) when that code no longer loads; Run then starts afresh.
   */
  async function reattach(): Promise<boolean> {
    restored = false
    const { events, cursor, workspace, breakHit } = store.getState()
    const cannot = (key: 'runNotKept' | 'runNoLoad') => {
      const phrase = storePhrase(key)
      return { file: 'run', message: storeMessage([phrase]), phrase }
    }
    if (!workspace) {
      store.setState({ problems: [cannot('runNotKept')] })
      return false
    }
    const mine = generation + 1
    const ok = await startRun(workspace, (r) => r.resume(events))
    // A Reset while the code loaded wins.
    if (generation !== mine) return false
    if (!ok) {
      // The kept run stays on screen; only a new Run replaces it.
      const { problems } = store.getState()
      store.setState({ events, cursor, mode: 'live', workspace, status: 'idle', problems: [...problems, cannot('runNoLoad')] })
      return false
    }
    store.setState({ events, cursor, breakHit })
    return true
  }

  /** The prefix of a replay as the start of a live run: a live `session.started`, then the logged events as they are. */
  function liveFromReplay(prefix: readonly SessionEvent[], init: RunInit): SessionEvent[] {
    const logged = prefix[0]
    if (logged?.type !== 'session.started') throw new Error('The replay has no session.started.')
    // The edited turn (its decide is the prefix's last) counts as the first of the workspace's max steps.
    const decides = prefix.filter((e) => e.type === 'model.responded' || e.type === 'model.failed').length
    const start: SessionEvent = {
      type: 'session.started',
      seq: 0,
      at: logged.at,
      source: 'live',
      protocol: logged.protocol,
      tools: init.tools,
      messages: logged.messages,
      maxSteps: Math.max(0, decides - 1) + (init.maxSteps ?? DEFAULT_MAX_STEPS),
      ...(init.settings ? { settings: init.settings } : {}),
    }
    return [start, ...prefix.slice(1)]
  }

  function needsFreshRun(): boolean {
    const s = store.getState()
    return s.mode !== 'live' || !runner || runner.stopped
  }

  /** The workspace's enabled breakpoints whose condition parses (the panel shows the others' errors). */
  function armed(): ArmedBreakpoint[] {
    return armBreakpoints(deps.workspace().settings.breakpoints ?? []).armed
  }

  /** Where a continued Run starts checking: past the hit it paused at, or past the cursor once moved. */
  function resumePoint(): number {
    const s = store.getState()
    if (s.breakHit && s.cursor === s.breakHit.seq - 1) return s.breakHit.at
    return 2 * s.cursor + 1
  }

  async function run(): Promise<void> {
    const s = store.getState()
    if (queueWhileLoading('run') || s.status === 'running') return
    // A replay is played, not re-run: go to the next breakpoint hit, or its last event.
    if (s.mode === 'replay') {
      const hit = firstHitInLog(armed(), s.events, resumePoint())
      store.setState({ breakHit: hit })
      s.setCursor(hit ? hit.seq - 1 : s.events.length - 1)
      return
    }
    if (restored && !(await reattach())) return void (queued = null)
    const continuing = !needsFreshRun()
    const resume = continuing ? resumePoint() : -1
    if (!continuing && !(await startRun(deps.workspace()))) return void (queued = null)
    // A Step or Run pressed while this Run's code loaded is this Run.
    queued = null
    const mine = generation
    store.setState({ status: 'running', breakHit: null, held: false })
    const done = guard.begin('run')
    const breakpoints = armed()
    try {
      if (runner && breakpoints.length > 0) {
        const hit = await runUntilBreak(runner, breakpoints, resume, nextTask)
        if (hit && mine === generation) {
          store.setState({ status: 'idle', breakHit: hit, cursor: hit.seq - 1 })
          return
        }
      }
      // A task per phase: a phase's events are drawn (in a microtask after them) in the phase's own
      // task, and the next phase starts in the next one, so a big turn's phases never add up.
      while (runner && !runner.stopped && mine === generation) {
        await runner.step()
        await nextTask()
      }
    } finally {
      done()
    }
    if (mine === generation) {
      const now = store.getState()
      store.setState({ status: 'stopped', cursor: now.held ? now.cursor : now.events.length - 1 })
    }
  }

  async function step(): Promise<void> {
    const s = store.getState()
    if (queueWhileLoading('step') || s.status === 'running') return
    if (s.cursor < s.events.length - 1) {
      s.setCursor(s.cursor + 1)
      return
    }
    if (s.mode === 'replay') return
    if (restored) {
      const attached = await reattach()
      if (!runner || !attached) return void (queued = null)
    }
    // At the end of a finished run, Step does nothing: Run starts a new one.
    if (runner?.stopped || (s.events.length > 0 && !runner)) return
    if (needsFreshRun()) {
      if (await startRun(deps.workspace())) await drain()
      else queued = null
      return
    }
    const mine = generation
    const current = runner
    store.setState({ status: 'running', held: false })
    const done = guard.begin('run')
    try {
      await current?.step()
    } finally {
      done()
    }
    if (mine !== generation) return
    store.setState({ status: current?.stopped ? 'stopped' : 'idle' })
    // A key pressed while a restored run's code loaded.
    await drain()
  }

  return {
    run,
    async runFrom(history) {
      if (!(await startRun(deps.workspace(), (r, init) => void r.start({ ...init, messages: history })))) return false
      await run()
      return true
    },
    async continueAfterEdit(prefix, edit, replayed) {
      const begin = (r: LoopRunner, init: RunInit) => {
        r.resume(replayed ? liveFromReplay(prefix, init) : prefix)
        r.edit(edit)
      }
      if (!(await startRun(deps.workspace(), begin))) return false
      await run()
      return true
    },
    step,
    back() {
      const s = store.getState()
      if (s.cursor > 0) s.setCursor(s.cursor - 1)
    },
    reset,
    stop() {
      confirm.denyPending()
      // What a streamed answer had received before Stop is kept in the stop's detail.
      const received = endpoint?.received() ?? ''
      runner?.abort(received === '' ? loopPhrase('stoppedByUser') : loopPhrase('stoppedByUserReceived', { received }))
      endpoint?.abort()
    },
    showLog(events, mode, workspace, cursor) {
      reset()
      store.setState({ events, cursor: Math.min(cursor, events.length - 1), status: 'stopped', mode, workspace })
    },
    restoreRun(events, workspace, cursor, breakHit) {
      reset()
      const stopped = events.at(-1)?.type === 'loop.stopped'
      store.setState({ events, cursor: Math.min(cursor, events.length - 1), status: stopped ? 'stopped' : 'idle', mode: 'live', workspace, breakHit: stopped ? null : breakHit })
      restored = !stopped && events[0]?.type === 'session.started'
    },
    dispose() {
      generation += 1
      dispose()
    },
  }
}
