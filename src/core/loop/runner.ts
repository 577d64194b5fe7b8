/**
 * Performs the machine's effects: asks the model, runs tools, appends events.
 * The only impure part of the loop; it reaches the outside world solely through
 * the caller's `Model` and `ToolExecutor`.
 */
import type { ToolSpec } from '../tools/types'
import { DEFAULT_TOOL_TIMEOUT_MS } from '../tools/types'
import type { Message } from '../messages'
import type { NewSessionEvent, SessionEvent } from './events'
import type { Model, ModelOutput, ToolExecutor } from './interfaces'
import { apply, initialLoopState, nextEffects, type Effect, type LoopState } from './machine'

/** How a run starts. */
export interface RunInit {
  protocol: string
  tools: ToolSpec[]
  /** System prompt and user input. */
  messages: Message[]
  /** Model turns allowed before stopping with `max_steps` (default 8). */
  maxSteps?: number
}

export interface RunnerOptions {
  model: Model
  executor: ToolExecutor
  /** Current time in ms since the epoch; injected so tests and replays are deterministic. */
  clock?: () => number
  /** Called after every appended event. */
  onEvent?: (event: SessionEvent, state: LoopState) => void
}

/** Default number of model turns before `max_steps`. */
export const DEFAULT_MAX_STEPS = 8

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
        let output: ModelOutput
        try {
          output = await this.options.model.respond(effect.request)
        } catch (error) {
          if (this.aborted) return []
          return [this.append({ type: 'model.failed', step: effect.request.step, error: errorMessage(error), durationMs: this.clock() - started })]
        }
        if (this.aborted) return []
        return [this.append({ type: 'model.responded', step: effect.request.step, raw: rawOutput(output), durationMs: this.clock() - started })]
      }
      case 'run_tools': {
        // Parallel calls run concurrently; results are logged in call order.
        const outcomes = await Promise.all(
          effect.calls.map(async ({ call, spec, problems }) => {
            if (!spec || problems.length > 0) {
              const error = spec ? `Invalid arguments for "${spec.name}": ${problems.join('; ')}` : problems.join('; ')
              return { callId: call.id, name: call.name, error, durationMs: 0, timedOut: false }
            }
            const outcome = await this.options.executor.execute(call, { ...spec, timeoutMs: spec.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS })
            return outcome.ok
              ? { callId: call.id, name: spec.name, result: outcome.result, durationMs: outcome.durationMs, timedOut: false }
              : { callId: call.id, name: spec.name, error: outcome.error, durationMs: outcome.durationMs, timedOut: outcome.timedOut }
          }),
        )
        if (this.aborted) return []
        return outcomes.map((o) => this.append({ type: 'tool.finished', truncated: false, ...o }))
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
