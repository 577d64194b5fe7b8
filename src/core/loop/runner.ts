/**
 * Performs the machine's effects: asks the model, runs tools, appends events.
 * The only impure part of the loop; it reaches the outside world solely through
 * the caller's `Model` and `ToolExecutor`. Every appended event goes through
 * `transition`, whose effects are what the next `step()` performs.
 */
import type { ToolSpec } from '../tools/types'
import type { Message } from '../messages'
import type { Decision, NewSessionEvent, SessionEvent } from './events'
import { executeCalls } from './execute-calls'
import type { CodeRunner, Model, ModelOutput, ResultSummarizer, ToolExecutor, ToolRouter } from './interfaces'
import { nextEffects, type Effect } from './decider'
import { inThreadPhases, type PhaseRunner } from './phase-runner'
import { transition } from './machine'
import { modelRequest } from './model-request'
import { errorPhraseOf, modelFailed, modelResponded, rawOutput, stopped, type RunnableCall } from './phases'
import { loopPhrase, type LoopPhrase } from './loop-text'
import { apply, fold, initialLoopState, type LoopState } from './reducer'
import type { LoopSettings } from './settings'
import { errorMessage } from '../util'

/** How a run starts. */
export interface RunInit {
  protocol: string
  tools: ToolSpec[]
  /** System prompt and user input. */
  messages: Message[]
  /** Model turns allowed before stopping with `max_steps` (default 8). */
  maxSteps?: number
  /** Loop behaviours; defaults when absent. */
  settings?: LoopSettings
  /** The user's system prompt text, so the prompt can be rebuilt for routed tools. */
  systemPromptBase?: string
}

/** Asks the user to approve, deny or edit calls to dangerous tools; resolves with one decision per call. */
export type ConfirmHandler = (calls: RunnableCall[]) => Promise<Decision[]>

export interface RunnerOptions {
  model: Model
  executor: ToolExecutor
  /** Picks the tools offered at each decide; all tools when absent. */
  router?: ToolRouter
  /** Shortens long results when `resultShaping` is `summarize`. */
  summarizer?: ResultSummarizer
  /** Runs code-as-action blocks. */
  codeRunner?: CodeRunner
  /** Asked before dangerous tools run; without one every such call is denied. */
  confirm?: ConfirmHandler
  /** Current time in ms since the epoch; injected so tests and replays are deterministic. */
  clock?: () => number
  /** Waits `ms` (injected latency faults); injected so tests need not wait. */
  sleep?: (ms: number) => Promise<void>
  /**
   * Computes the parse and validate phases; in this thread when absent. The browser passes one
   * that moves big turns to a worker (the page stays responsive); the events are the same.
   */
  phases?: PhaseRunner
  /** Called after every appended event. */
  onEvent?: (event: SessionEvent, state: LoopState) => void
  /**
   * Awaited between slices of {@link COMMIT_SLICE} events when a phase's outcome is longer (the
   * tool.finished of a 100 000-call turn), so a page can paint and answer input meanwhile. A Stop
   * during it keeps the slices already appended and drops the rest. Absent (the CLI), a phase's
   * events are appended in one go. Also awaited between slices of the calls a big parallel turn
   * starts (see `START_SLICE`).
   */
  pause?: () => Promise<void>
}

/** Events appended between two pauses (see `RunnerOptions.pause`). */
export const COMMIT_SLICE = 5000

/** Default number of model turns before `max_steps`. */
export const DEFAULT_MAX_STEPS = 8

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Drives one run. `step()` performs exactly one effect (one phase) and resolves with
 * the events it appended; `run()` steps until the loop stops.
 */
export class LoopRunner {
  private readonly log: SessionEvent[] = []
  private current: LoopState = initialLoopState
  /** What `transition` said must happen after the last appended event. */
  private pending: Effect[] = []
  private busy = false
  private aborted = false
  private readonly clock: () => number

  constructor(private readonly options: RunnerOptions) {
    this.clock = options.clock ?? Date.now
  }

  /** The session log so far (a copy). */
  get events(): SessionEvent[] {
    return [...this.log]
  }

  get state(): LoopState {
    return this.current
  }

  /** True once `loop.stopped` has been appended. */
  get stopped(): boolean {
    return this.current.stop !== null
  }

  /** Appends `session.started`. Throws if the run was already started. */
  start(init: RunInit): SessionEvent {
    if (this.log.length > 0) throw new Error('This run has already started.')
    return this.commit([{
      type: 'session.started',
      source: 'live',
      protocol: init.protocol,
      tools: init.tools,
      messages: init.messages,
      maxSteps: init.maxSteps ?? DEFAULT_MAX_STEPS,
      ...(init.settings ? { settings: init.settings } : {}),
      ...(init.systemPromptBase !== undefined ? { systemPromptBase: init.systemPromptBase } : {}),
    }])[0]!
  }

  /**
   * Continues an earlier log instead of starting afresh (a fork, or a run kept over a page
   * reload): `events` become this run's
   * log as they are, and the run goes on from the state they fold to. Throws when this run has
   * already started, or when `events` is not a log of an unfinished run (a `session.started`
   * first, `seq` 0..n-1, no `loop.stopped`).
   */
  resume(events: readonly SessionEvent[]): void {
    if (this.log.length > 0) throw new Error('This run has already started.')
    if (events[0]?.type !== 'session.started') throw new Error('A run continues from a log that begins with session.started.')
    events.forEach((event, index) => {
      if (event.seq !== index) throw new Error(`events[${index}].seq: expected ${index}.`)
      if (event.type === 'loop.stopped') throw new Error('The log has already stopped.')
    })
    this.log.push(...events)
    this.current = fold(events)
    this.pending = nextEffects(this.current)
  }

  /**
   * Appends the user's `edit.applied` (see `planEdit` in core/debug) and decides what comes next
   * from it: an edited output is parsed again, an edited result is backfilled. Throws while a
   * step is in progress, after the loop stopped, or when the run has not started.
   */
  edit(event: Extract<NewSessionEvent, { type: 'edit.applied' }>): SessionEvent {
    if (this.busy) throw new Error('A step is already in progress.')
    if (this.log.length === 0) throw new Error('The run has not started.')
    if (this.stopped) throw new Error('The run has already stopped.')
    return this.commit([event])[0]!
  }

  /** Performs the next phase. Resolves with the events it appended (empty once stopped). */
  async step(): Promise<SessionEvent[]> {
    if (this.busy) throw new Error('A step is already in progress.')
    const effects = this.pending
    if (effects.length === 0) return []
    this.busy = true
    try {
      const appended: SessionEvent[] = []
      for (const effect of effects) appended.push(...(await this.perform(effect)))
      return appended
    } finally {
      this.busy = false
    }
  }

  /** Steps until the loop stops. */
  async run(): Promise<SessionEvent[]> {
    while (!this.stopped) await this.step()
    return this.events
  }

  /** Stops the run with `aborted` and `detail` (English, or a phrase of `LOOP_TEXT`); outcomes of an in-flight phase are discarded (an offloaded parse or validate is cancelled). */
  abort(detail: string | LoopPhrase = loopPhrase('stoppedByUser')): void {
    if (this.stopped) return
    this.aborted = true
    this.commit([stopped('aborted', detail)])
    if (this.busy) this.options.phases?.cancel?.()
  }

  private async perform(effect: Effect): Promise<SessionEvent[]> {
    switch (effect.type) {
      case 'append':
        return this.commit([effect.event])
      case 'parse':
      case 'validate': {
        const phases = this.options.phases ?? inThreadPhases
        let event: NewSessionEvent
        try {
          event = effect.type === 'parse' ? await phases.parse(effect.input) : await phases.validate(effect.input)
        } catch (error) {
          if (this.aborted) return []
          return this.commit([stopped('error', `The ${effect.type} phase could not run: ${errorMessage(error)}`)])
        }
        if (this.aborted) return []
        return this.commit([event])
      }
      case 'call_model': {
        const started = this.clock()
        let planned = effect.planned
        let output: ModelOutput
        try {
          const routed = !effect.settings.finalTurn && this.options.router ? await this.options.router.route(planned.request) : null
          if (routed) planned = modelRequest(this.current, effect.settings, routed)
          output = await this.options.model.respond(planned.request)
        } catch (error) {
          if (this.aborted) return []
          return this.commit([modelFailed(planned.step, errorMessage(error), this.clock() - started, errorPhraseOf(error))])
        }
        if (this.aborted) return []
        return this.commit([modelResponded(planned, rawOutput(output), this.clock() - started, output.timing, output.finishReason)])
      }
      case 'confirm': {
        const decisions = this.options.confirm
          ? await this.options.confirm(effect.calls)
          : effect.calls.map((c): Decision => ({ callId: c.call.id, decision: 'deny' }))
        if (this.aborted) return []
        return this.commit([{ type: 'confirm.decided', decisions }])
      }
      case 'run_tools': {
        const finished = await executeCalls(effect.calls, effect.settings, effect.step, {
          executor: this.options.executor,
          ...(this.options.codeRunner ? { codeRunner: this.options.codeRunner } : {}),
          ...(this.options.summarizer ? { summarizer: this.options.summarizer } : {}),
          clock: this.clock,
          sleep: this.options.sleep ?? realSleep,
          ...(this.options.pause ? { pause: this.options.pause } : {}),
          stopped: () => this.aborted,
        })
        if (this.aborted) return []
        return this.options.pause && finished.length > COMMIT_SLICE ? this.commitInSlices(finished, this.options.pause) : this.commit(finished)
      }
    }
  }

  /** {@link commit} in slices with `pause` between them; the decision is taken on the last event only. */
  private async commitInSlices(events: readonly NewSessionEvent[], pause: () => Promise<void>): Promise<SessionEvent[]> {
    const appended: SessionEvent[] = []
    for (let at = 0; at < events.length; at += COMMIT_SLICE) {
      if (at > 0) {
        await pause()
        // Stopped meanwhile: what was appended stays (those calls did finish), the rest is dropped.
        if (this.aborted) return appended
      }
      for (const event of this.commit(events.slice(at, at + COMMIT_SLICE), at + COMMIT_SLICE >= events.length)) appended.push(event)
    }
    return appended
  }

  /**
   * Appends the outcome of one phase. Each event is folded in; the last one goes through
   * `transition`, whose effects become the next step — deciding once per phase keeps a turn of
   * n tool results linear (a decision after each would look at every call n times).
   */
  private commit(events: readonly NewSessionEvent[], decide = true): SessionEvent[] {
    const appended: SessionEvent[] = []
    events.forEach((event, index) => {
      const full = { ...event, seq: this.log.length, at: this.clock() } as SessionEvent
      this.log.push(full)
      if (decide && index === events.length - 1) [this.current, this.pending] = transition(this.current, full)
      else this.current = apply(this.current, full)
      this.options.onEvent?.(full, this.current)
      appended.push(full)
    })
    return appended
  }
}

