/**
 * The execute phase: runs one turn's calls in dependency order, concurrently or one after
 * another, with retries, injected faults and result shaping, and returns one `tool.finished`
 * event per call (plus one per tool call made by code-as-action code), in call order.
 */
import type { JsonValue } from '../messages'
import type { ToolSpec } from '../tools/types'
import { DEFAULT_TOOL_TIMEOUT_MS } from '../tools/types'
import type { NewSessionEvent } from './events'
import { faultFor, GARBAGE_RESULT, hugeResult } from './faults'
import type { CodeRunner, ResultSummarizer, ToolExecutor, ToolOutcome } from './interfaces'
import { finishedFor, type RunnableCall } from './phases'
import { fmtMs } from './present/describe'
import { RUN_CODE } from './parse-turn'
import type { LoopSettings } from './settings'
import { truncateResult, wrapUntrusted } from './shape-result'
import { errorMessage } from '../util'

type Finished = Extract<NewSessionEvent, { type: 'tool.finished' }>

export interface ExecuteDeps {
  executor: ToolExecutor
  codeRunner?: CodeRunner
  summarizer?: ResultSummarizer
  /** ms since the epoch. */
  clock: () => number
  /** Waits `ms`; injected so tests of injected latency need not wait. */
  sleep: (ms: number) => Promise<void>
  /**
   * Awaited between slices of {@link START_SLICE} calls while a parallel wave is started (a
   * macrotask in the page, so it paints between them). Absent, a wave starts all at once.
   */
  pause?: () => Promise<void>
  /**
   * True once the run was stopped; checked before each slice of a parallel wave and before each
   * call run one after another, so no call is started after Stop. Calls not started are reported
   * as not run ({@link STOPPED_NOT_RUN}). Absent, every call is started.
   */
  stopped?: () => boolean
}

/**
 * Calls of a parallel wave started between two pauses. Starting a call and taking in its result
 * cost the page a few microseconds each; a turn of 100 000 calls started in one go sent them as
 * one batch whose results all came back, and were settled, in one task of seconds.
 */
export const START_SLICE = 1000

/** The error of a call that was never started because the run was stopped first. */
export const STOPPED_NOT_RUN = 'Not run: the run was stopped before this call started.'

/** The text written back when the user declines a call (an error result). */
export const DECLINED_RESULT = 'The user declined to run this call.'

/** The error written back for a declined call: {@link DECLINED_RESULT}, then the user's reason when one was given. */
export function declinedError(reason?: string): string {
  const why = reason?.trim() ?? ''
  return why === '' ? DECLINED_RESULT : `${DECLINED_RESULT} Reason: ${why}`
}

/**
 * Orders calls so each runs after the calls it `dependsOn`. Returns waves of call indices, each
 * in output order (every call of a wave may run concurrently), and the problems of calls that can
 * never run (unknown dependency ids, cycles, waiting on a call that cannot run). Kahn's
 * algorithm by levels: O(calls + dependencies), plus sorting each wave.
 */
export function planWaves(calls: readonly RunnableCall[]): { waves: number[][]; problems: Map<number, string> } {
  // Parallel calls without `dependsOn` (nearly every turn) are one wave: no graph to build.
  if (calls.every((c) => c.dependsOn.length === 0)) return { waves: calls.length === 0 ? [] : [calls.map((_, i) => i)], problems: new Map() }
  const byId = new Map(calls.map((c, i) => [c.call.id, i]))
  const problems = new Map<number, string>()
  calls.forEach((c, i) => {
    const unknown = c.dependsOn.filter((id) => !byId.has(id))
    if (unknown.length > 0) problems.set(i, `depends on unknown call id ${unknown.map((id) => `"${id}"`).join(', ')}`)
  })
  // waiting[i]: dependencies of call i not yet done; dependents[j]: calls waiting on call j.
  const waiting = new Array<number>(calls.length).fill(0)
  const dependents: number[][] = calls.map(() => [])
  calls.forEach((c, i) => {
    if (problems.has(i)) return
    for (const id of c.dependsOn) {
      waiting[i]! += 1
      dependents[byId.get(id)!]!.push(i)
    }
  })
  const waves: number[][] = []
  let wave = calls.map((_, i) => i).filter((i) => !problems.has(i) && waiting[i] === 0)
  let done = 0
  while (wave.length > 0) {
    waves.push(wave)
    done += wave.length
    const next: number[] = []
    for (const i of wave) for (const j of dependents[i]!) if ((waiting[j]! -= 1) === 0) next.push(j)
    wave = next.sort((a, b) => a - b)
  }
  if (done + problems.size < calls.length) {
    // Whatever is left waits on itself through a chain: a cycle, or on a call that cannot run.
    const scheduled = new Set(waves.flat())
    const stuck = calls.map((_, i) => i).filter((i) => !scheduled.has(i) && !problems.has(i))
    const unrunnable = new Set(problems.keys())
    const cycle = `dependency cycle between ${stuck.map((i) => `"${calls[i]!.call.id}"`).join(', ')}`
    for (const i of stuck) {
      const blocked = calls[i]!.dependsOn.some((id) => unrunnable.has(byId.get(id)!))
      problems.set(i, blocked ? 'depends on a call that cannot run' : cycle)
    }
  }
  return { waves, problems }
}

/** Runs the calls of one turn. Never rejects: every failure becomes that call's error. */
export async function executeCalls(calls: readonly RunnableCall[], settings: LoopSettings, step: number, deps: ExecuteDeps): Promise<Finished[]> {
  const phaseStart = deps.clock()
  const { waves, problems } = planWaves(calls)
  const finished = new Map<number, Finished[]>()
  const failed = new Set<string>()
  for (const [index, problem] of problems) finished.set(index, [notRun(calls[index]!, `Not run: ${problem}.`, phaseStart, deps.clock())])

  const runOne = async (index: number) => {
    const runnable = calls[index]!
    const start = deps.clock()
    const blockedBy = runnable.dependsOn.find((id) => failed.has(id))
    let events: Finished[]
    if (blockedBy) events = [notRun(runnable, `Not run: the call "${blockedBy}" it depends on failed.`, phaseStart, start)]
    else events = await runCall(runnable, settings, step, deps, phaseStart)
    const own = events[events.length - 1]!
    if (own.error !== undefined) failed.add(runnable.call.id)
    finished.set(index, events)
  }

  // A call whose start comes after Stop is reported, never started later.
  const isStopped = () => deps.stopped?.() === true
  for (const wave of waves) {
    if (settings.execution === 'parallel') {
      const running: Promise<void>[] = []
      for (let at = 0; at < wave.length && !isStopped(); at += START_SLICE) {
        // Still all in flight together: a later slice starts before the earlier ones finish.
        if (at > 0 && deps.pause) await deps.pause()
        // The pause is where the user's Stop lands: check again before starting the slice.
        if (isStopped()) break
        for (let i = at; i < Math.min(wave.length, at + START_SLICE); i++) running.push(runOne(wave[i]!))
      }
      await Promise.all(running)
    } else
      for (const index of wave) {
        if (isStopped()) break
        await runOne(index)
      }
  }
  const now = deps.clock()
  return calls.flatMap((runnable, index) => finished.get(index) ?? [notRun(runnable, STOPPED_NOT_RUN, phaseStart, now)])
}

function base(runnable: RunnableCall): ReturnType<typeof finishedFor> {
  return finishedFor({ id: runnable.call.id, name: runnable.call.name, index: runnable.index, arguments: runnable.call.arguments })
}

function notRun(runnable: RunnableCall, error: string, phaseStart: number, now: number): Finished {
  return { ...base(runnable), error, durationMs: 0, startOffsetMs: now - phaseStart }
}

async function runCall(runnable: RunnableCall, settings: LoopSettings, step: number, deps: ExecuteDeps, phaseStart: number): Promise<Finished[]> {
  const start = deps.clock()
  const startOffsetMs = start - phaseStart
  const { spec } = runnable
  if (runnable.call.name === RUN_CODE && settings.codeAsAction) return runCode(runnable, settings, deps, startOffsetMs)
  if (!spec || runnable.problems.length > 0) {
    const error = spec ? `Invalid arguments for "${spec.name}": ${runnable.problems.join('; ')}` : runnable.problems.join('; ')
    return [{ ...base(runnable), error, durationMs: 0, startOffsetMs }]
  }
  // A denial is an error result (is_error on Anthropic, an `Error:` tool message on OpenAI): the call did not do its job.
  if (runnable.decision?.decision === 'deny') return [{ ...base(runnable), error: declinedError(runnable.decision.reason), declined: true, durationMs: 0, startOffsetMs }]
  const args: Record<string, JsonValue> = runnable.decision?.decision === 'edit' && runnable.decision.arguments ? runnable.decision.arguments : runnable.call.arguments
  const call = { ...runnable.call, arguments: args }
  const timeoutMs = spec.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS
  const injected = faultFor(settings.faults, spec.name, step)

  // Injected faults are transient: they hit the first attempt only, so a retry can recover.
  const attempt = async (first: boolean): Promise<ToolOutcome> => {
    const fault = first ? injected : undefined
    if (fault?.kind === 'fail') return { ok: false, error: `Injected fault: "${spec.name}" failed.`, durationMs: 0, timedOut: false }
    if (fault?.kind === 'timeout') {
      // Wait out the timeout for real, so the timeline and the model see what a hung tool costs.
      await deps.sleep(timeoutMs)
      return { ok: false, error: `Tool "${spec.name}" timed out after ${timeoutMs} ms and was stopped.`, durationMs: timeoutMs, timedOut: true }
    }
    if (fault?.kind === 'latency') await deps.sleep(fault.latencyMs ?? 1500)
    const outcome = await deps.executor.execute(call, { ...spec, timeoutMs } satisfies ToolSpec)
    if (outcome.ok && fault?.kind === 'huge') return { ...outcome, result: hugeResult(outcome.result) }
    if (outcome.ok && fault?.kind === 'garbage') return { ...outcome, result: GARBAGE_RESULT }
    return outcome
  }

  let outcome = await attempt(true)
  let attempts = 1
  const earlierAttempts: NonNullable<Finished['earlierAttempts']> = []
  // A call interrupted by a sibling's timeout is reported, never run again: it may already have
  // had its effect (an email sent), and only a setting may ask for a second attempt.
  if (!outcome.ok && outcome.timedOut && settings.retryOnTimeout) {
    earlierAttempts.push({ error: timedOutError(spec.name, outcome.durationMs, timeoutMs, outcome.detail), durationMs: outcome.durationMs, timedOut: outcome.timedOut })
    outcome = await attempt(false)
    attempts += 1
  }
  const durationMs = deps.clock() - start
  const common = {
    ...base(runnable),
    arguments: args,
    durationMs,
    startOffsetMs,
    ...(attempts > 1 ? { attempts, earlierAttempts } : {}),
    ...(injected ? { fault: injected.kind } : {}),
  }
  if (!outcome.ok && outcome.timedOut) return [{ ...common, error: timedOutError(spec.name, durationMs, timeoutMs, outcome.detail), timedOut: true, timeoutMs }]
  if (!outcome.ok) return [{ ...common, error: outcome.error, timedOut: outcome.timedOut }]
  return [{ ...common, ...(await shape(outcome.result, spec.name, settings, deps)) }]
}

/**
 * What a timed-out call's result says: the time it ran, as the timeline shows it (the same
 * `durationMs`), and the limit it was given. The two differ: the sandbox stops synchronous code
 * a little before the limit, so that its answer reaches the host before the host's own timer.
 */
export function timedOutError(name: string, durationMs: number, timeoutMs: number, detail?: string): string {
  return `Tool "${name}" timed out after ${fmtMs(durationMs)} (limit ${timeoutMs} ms) and was stopped.${detail ? ` ${detail}` : ''}`
}

/** Applies `maxResultChars` (truncate or summarize) and untrusted wrapping to a result. */
async function shape(result: string, tool: string, settings: LoopSettings, deps: ExecuteDeps): Promise<Pick<Finished, 'result' | 'truncated' | 'originalChars' | 'summarized' | 'wrapped' | 'injection'>> {
  let text = result
  const extra: Pick<Finished, 'truncated' | 'originalChars' | 'summarized'> = { truncated: false }
  if (result.length > settings.maxResultChars) {
    extra.originalChars = result.length
    let summary: string | null = null
    if (settings.resultShaping === 'summarize' && deps.summarizer) {
      try {
        summary = await deps.summarizer.summarize(result, { tool, maxChars: settings.maxResultChars })
      } catch (error) {
        summary = null
        text = `${truncateResult(result, settings.maxResultChars)}\n[summarize() failed: ${errorMessage(error)}]`
      }
    }
    if (summary !== null) {
      text = summary
      extra.summarized = true
    } else if (text === result) text = truncateResult(result, settings.maxResultChars)
    extra.truncated = !extra.summarized
  }
  if (!settings.untrustedWrapping) return { result: text, ...extra }
  const wrapped = wrapUntrusted(text)
  return { result: wrapped.text, ...extra, wrapped: true, ...(wrapped.injection.length ? { injection: wrapped.injection } : {}) }
}

async function runCode(runnable: RunnableCall, settings: LoopSettings, deps: ExecuteDeps, startOffsetMs: number): Promise<Finished[]> {
  const code = runnable.call.arguments.code
  if (!deps.codeRunner || typeof code !== 'string') {
    return [{ ...base(runnable), error: deps.codeRunner ? 'The code block is empty.' : 'Code-as-action is not available here.', durationMs: 0, startOffsetMs }]
  }
  const outcome = await deps.codeRunner.runCode(code, { timeoutMs: DEFAULT_TOOL_TIMEOUT_MS, maxOutputChars: settings.maxCodeOutputChars })
  let offset = startOffsetMs
  const nested: Finished[] = outcome.calls.map((c, i) => {
    const event: Finished = {
      type: 'tool.finished',
      callId: `${runnable.call.id}.${i + 1}`,
      parentCallId: runnable.call.id,
      name: c.name,
      arguments: jsonObject(c.arguments),
      durationMs: c.durationMs,
      startOffsetMs: offset,
      timedOut: false,
      truncated: false,
      ...(c.error !== undefined ? { error: c.error } : { result: c.result ?? '' }),
    }
    offset += c.durationMs
    return event
  })
  const output = outcome.output === '' ? '(no output)' : outcome.output
  const own: Finished = {
    ...base(runnable),
    durationMs: outcome.durationMs,
    startOffsetMs,
    timedOut: outcome.timedOut,
    truncated: outcome.truncated,
    ...(outcome.ok ? { result: output } : { error: `${outcome.error ?? 'The code failed.'}\nOutput so far:\n${output}` }),
  }
  return [...nested, own]
}

function jsonObject(value: Record<string, unknown>): Record<string, JsonValue> {
  try {
    const parsed: unknown = JSON.parse(JSON.stringify(value))
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, JsonValue>) : {}
  } catch {
    return {}
  }
}
