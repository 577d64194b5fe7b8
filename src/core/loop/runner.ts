/**
 * Performs the machine's effects: asks the model, runs tools, appends events.
 * The only impure part of the loop; it reaches the outside world solely through
 * the caller's `Model` and `ToolExecutor`.
 */
import type { ToolSpec } from '../tools/types'
import type { Message } from '../messages'
import type { Decision, NewSessionEvent, SessionEvent } from './events'
import { executeCalls } from './execute-calls'
import { withOfferedTools } from './system-prompt'
import type { CodeRunner, Model, ModelOutput, ResultSummarizer, ToolExecutor, ToolRouter } from './interfaces'
import { apply, initialLoopState, nextEffects, type Effect, type LoopState, type RunnableCall } from './machine'
import type { LoopSettings } from './settings'

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
  /** Called after every appended event. */
  onEvent?: (event: SessionEvent, state: LoopState) => void
}

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
    return this.append({
      type: 'session.started',
      source: 'live',
      protocol: init.protocol,
      tools: init.tools,
      messages: init.messages,
      maxSteps: init.maxSteps ?? DEFAULT_MAX_STEPS,
      ...(init.settings ? { settings: init.settings } : {}),
      ...(init.systemPromptBase !== undefined ? { systemPromptBase: init.systemPromptBase } : {}),
    })
  }

  /** Performs the next phase. Resolves with the events it appended (empty once stopped). */
  async step(): Promise<SessionEvent[]> {
    if (this.busy) throw new Error('A step is already in progress.')
    const effects = nextEffects(this.current)
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

  /** Stops the run with `aborted`; outcomes of an in-flight phase are discarded. */
  abort(detail = 'Stopped by the user.'): void {
    if (this.stopped) return
    this.aborted = true
    this.append({ type: 'loop.stopped', reason: 'aborted', detail })
  }

  private async perform(effect: Effect): Promise<SessionEvent[]> {
    switch (effect.type) {
      case 'append':
        return [this.append(effect.event)]
      case 'call_model': {
        const started = this.clock()
        const { request } = effect
        let output: ModelOutput
        let offeredTools: string[] | undefined
        try {
          const routed = !effect.finalTurn && this.options.router ? await this.options.router.route(request) : null
          if (routed) offeredTools = routed
          const tools = routed ? request.tools.filter((t) => routed.includes(t.name)) : request.tools
          // The system prompt lists the tools: rebuild it so routed-away tools are not shown.
          const messages = routed && effect.systemPromptBase !== null ? withOfferedTools(request.messages, request.protocol, tools, effect.systemPromptBase) : request.messages
          output = await this.options.model.respond({ ...request, messages, tools })
        } catch (error) {
          if (this.aborted) return []
          return [this.append({ type: 'model.failed', step: request.step, error: errorMessage(error), durationMs: this.clock() - started })]
        }
        if (this.aborted) return []
        const windowed = effect.window.from > request.messages.findIndex((m) => m.role !== 'system')
        return [
          this.append({
            type: 'model.responded',
            step: request.step,
            raw: rawOutput(output),
            durationMs: this.clock() - started,
            ...(offeredTools ? { offeredTools } : {}),
            ...(windowed ? { window: effect.window } : {}),
            ...(effect.finalTurn ? { finalTurn: true } : {}),
          }),
        ]
      }
      case 'confirm': {
        const decisions = this.options.confirm
          ? await this.options.confirm(effect.calls)
          : effect.calls.map((c): Decision => ({ callId: c.call.id, decision: 'deny' }))
        if (this.aborted) return []
        return [this.append({ type: 'confirm.decided', decisions })]
      }
      case 'run_tools': {
        const finished = await executeCalls(effect.calls, effect.settings, effect.step, {
          executor: this.options.executor,
          ...(this.options.codeRunner ? { codeRunner: this.options.codeRunner } : {}),
          ...(this.options.summarizer ? { summarizer: this.options.summarizer } : {}),
          clock: this.clock,
          sleep: this.options.sleep ?? realSleep,
        })
        if (this.aborted) return []
        return finished.map((event) => this.append(event))
      }
    }
  }

  private append(event: NewSessionEvent): SessionEvent {
    const full = { ...event, seq: this.log.length, at: this.clock() } as SessionEvent
    this.log.push(full)
    this.current = apply(this.current, full)
    this.options.onEvent?.(full, this.current)
    return full
  }
}

/** The raw text logged for a model output; native messages are serialised as OpenAI wire JSON. */
export function rawOutput(output: ModelOutput): string {
  if (output.kind === 'text') return output.raw
  const { message } = output
  const wire = {
    role: 'assistant',
    content: message.content ?? null,
    ...(message.tool_calls && message.tool_calls.length > 0
      ? { tool_calls: message.tool_calls.map((c) => ({ ...(c.id ? { id: c.id } : {}), type: 'function', function: { name: c.function.name, arguments: c.function.arguments } })) }
      : {}),
  }
  return JSON.stringify(wire, null, 2)
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
