/**
 * The loop of an exported TypeScript program (*Export → TypeScript loop* and *Export → Vitest
 * test*), written here as real code so it is type-checked against the bundled kit
 * (`export-kit.ts`). The regions marked `#region export:NAME` are copied verbatim into the
 * exported file by core/export (the `toolstep-export-kit` Vite plugin serves their text); the
 * rest of this file only declares what the exported file defines around them.
 *
 * The loop follows Toolstep's engine (core/loop: decider, phases, execute-calls) step for step —
 * the same stop reasons, parse retries, repeated-call rule, tools-disabled last turn, timeouts
 * and result truncation — and calls the kit for everything format- and schema-specific.
 * Keep the two in step: src/core/export/loop-program.test.ts runs an export against the
 * playground's own run.
 */
import { createInterface } from 'node:readline/promises'
import type * as Kit from './export-kit'

/** The settings block the exported file defines. */
declare const SETTINGS: LoopProgramSettings
/** The endpoint block the exported program defines (no key: that comes from the environment). */
declare const ENDPOINT: LoopProgramEndpoint
/** The tools the exported file loads from its own exports. */
declare const TOOLS: LoadedTools
/** The user message of the workspace. */
declare const INPUT: string
/** The kit as the exported file declares it; the assignment proves the bundle satisfies the declaration. */
declare const kit: typeof Kit
const toolstep: Toolstep = kit

//#region export:types
/** A JSON value. */
type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

/** A tool as offered to the model (its arguments as JSON Schema). */
interface ToolSpec {
  name: string
  description: string
  inputSchema: { [key: string]: unknown }
  dangerous?: boolean
  timeoutMs?: number
  aliases?: string[]
  argumentAliases?: Record<string, string>
}

/** One tool call; `id` is the `tool_call_id` its result is paired with. */
interface ToolCall {
  id: string
  name: string
  arguments: Record<string, JsonValue>
  /** The arguments exactly as written on the wire. */
  rawArguments?: string
}

/** The conversation, in Toolstep's canonical shape (system / user / assistant / tool). */
type Message =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; name: string; content: string; isError?: boolean }

/** What a model answers: raw text for a text wire format, or a native Chat Completions message. */
type ModelOutput =
  | { kind: 'text'; raw: string }
  | { kind: 'message'; message: { content: string | null; tool_calls?: { id?: string; function: { name: string; arguments: string } }[] } }

/** The parse phase's result for one output. */
interface ParsedTurn {
  protocol: string
  calls: (ToolCall & { dependsOn?: string[] })[]
  text: string
  errors: { code: string; message: string }[]
}

/** One call after validation. */
interface Verdict {
  callId: string
  name: string
  ok: boolean
  problems: string[]
  arguments?: Record<string, JsonValue>
  confirm?: boolean
}

/** The tools found among this file's exports. */
interface LoadedTools {
  specs: ToolSpec[]
  run(name: string, args: Record<string, JsonValue>, callId: string): Promise<{ ok: true; result: string } | { ok: false; error: string }>
}

/** The loop behaviours of the workspace (Toolstep's loop settings). */
interface LoopBehaviour {
  validation: { unknownArguments: 'drop' | 'reject'; coerce: boolean }
  fuzzyToolNames: boolean
  maxParseRetries: number
  onParseFailure: 'error' | 'final_answer'
  fallbackProtocols: string[]
  repeatedCall: { limit: number; action: 'stop' | 'warn' }
  finalTurnWithoutTools: boolean
  execution: 'parallel' | 'sequential'
  retryOnTimeout: boolean
  maxResultChars: number
  [other: string]: unknown
}

interface LoopProgramSettings {
  /** Wire format the model speaks. */
  protocol: string
  /** Model turns before stopping with `max_steps`. */
  maxSteps: number
  /** The workspace's own system prompt text (the format's instructions are added after it). */
  systemPrompt: string
  loop: LoopBehaviour
}

interface LoopProgramEndpoint {
  baseUrl: string
  model: string
  stream: boolean
  temperature?: number
  /** Time allowed for one model call, ms. */
  timeoutMs?: number
  headers?: Record<string, string>
}

/** Toolstep's own code, bundled: the wire format, validation, the endpoint client, tool invocation. */
interface Toolstep {
  loadTools(exports: Record<string, unknown>): LoadedTools
  systemPrompt(protocol: string, tools: readonly ToolSpec[], base: string): string
  endpointModel(config: LoopProgramEndpoint, options: { apiKey?: string; signal?: AbortSignal }): LoopModel & { abort(): void }
  raw(output: ModelOutput): string
  parse(raw: string, turn: number, protocol: string, settings: LoopBehaviour): ParsedTurn
  validate(turn: ParsedTurn, tools: readonly ToolSpec[], settings: LoopBehaviour, repeatRun: unknown): { verdicts: Verdict[]; repeated: { name: string; count: number } | null; repeatRun: unknown }
  errorContent(error: string): string
  correction(turn: ParsedTurn): string
  truncate(text: string, maxChars: number): string
  plan(calls: readonly { id: string; name: string; dependsOn?: string[] }[]): { waves: number[][]; problems: [number, string][] }
}
//#endregion

//#region export:loop
/** Why the loop stopped. */
type StopReason = 'final_answer' | 'max_steps' | 'repeated_call' | 'aborted' | 'error'

/** One tool call the loop made, and what came back. */
interface CallRecord {
  /** 1-based model turn. */
  turn: number
  id: string
  name: string
  arguments: Record<string, JsonValue>
  result?: string
  error?: string
}

/** What a run ends with. */
interface LoopRun {
  stopReason: StopReason
  detail?: string
  /** The answer, when the model gave one. */
  finalAnswer: string | null
  calls: CallRecord[]
  messages: Message[]
  /** Model turns taken. */
  turns: number
}

/** The model: asked with the conversation and the tools offered, answers text or a native message. */
interface LoopModel {
  respond(request: { messages: Message[]; tools: ToolSpec[]; step: number; protocol: string }): Promise<ModelOutput>
}

/** What the loop reports as it goes (for printing). */
type LoopEvent = { type: 'decide'; turn: number; raw: string } | { type: 'call'; call: CallRecord } | { type: 'malformed'; turn: number; errors: string[] }

interface LoopOptions {
  model: LoopModel
  /** The user message. */
  input: string
  /** Asked before a call to a tool marked `dangerous` runs; `true` runs it. Without it such calls are declined. */
  confirm?(call: ToolCall): Promise<boolean>
  onEvent?(event: LoopEvent): void
  /** Aborts the run (stop reason `aborted`). */
  signal?: AbortSignal
}

const DEFAULT_TOOL_TIMEOUT_MS = 5000
const DECLINED_RESULT = 'The user declined to run this call.'
const FINAL_TURN_NOTICE = 'You have used all the steps available for tools. Answer the user now with what you have, without calling any tool.'

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Runs `work`, or gives up after `ms` (the tool keeps running in the background: JavaScript cannot stop it). */
async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)))
  try {
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** The execute phase for one validated call: runs it (with its timeout and one retry when asked) and shapes the result. */
async function executeCall(call: ToolCall, verdict: Verdict | undefined, options: LoopOptions): Promise<{ result: string } | { error: string }> {
  const spec = TOOLS.specs.find((tool) => tool.name === verdict?.name)
  if (!verdict || !spec || !verdict.ok) {
    const problems = verdict?.problems ?? [`"${call.name}" was not validated`]
    return { error: spec ? `Invalid arguments for "${spec.name}": ${problems.join('; ')}` : problems.join('; ') }
  }
  if (verdict.confirm && !(await options.confirm?.(call))) return { result: DECLINED_RESULT }
  const timeoutMs = spec.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS
  const attempt = async (): Promise<{ ok: true; result: string } | { ok: false; error: string; timedOut: boolean }> => {
    const outcome = await withTimeout(TOOLS.run(spec.name, call.arguments, call.id), timeoutMs)
    if (outcome === 'timeout') return { ok: false, error: `Tool "${spec.name}" timed out after ${timeoutMs} ms and was stopped.`, timedOut: true }
    return outcome.ok ? outcome : { ...outcome, timedOut: false }
  }
  let outcome = await attempt()
  if (!outcome.ok && outcome.timedOut && SETTINGS.loop.retryOnTimeout) outcome = await attempt()
  if (!outcome.ok) return { error: outcome.error }
  const max = SETTINGS.loop.maxResultChars
  return { result: outcome.result.length > max ? toolstep.truncate(outcome.result, max) : outcome.result }
}

/**
 * The tool-use loop: decide → parse → validate → (confirm) → execute → backfill, until the model
 * answers without a call, or a limit stops it. Never rejects: failures end the run with stop
 * reason `error` and say why in `detail`.
 */
async function runLoop(options: LoopOptions): Promise<LoopRun> {
  const { loop } = SETTINGS
  const messages: Message[] = [
    { role: 'system', content: toolstep.systemPrompt(SETTINGS.protocol, TOOLS.specs, SETTINGS.systemPrompt) },
    { role: 'user', content: options.input },
  ]
  const calls: CallRecord[] = []
  let turn = 0
  let parseFailures = 0
  let repeatRun: unknown = null
  let finalTurn = false
  const end = (stopReason: StopReason, detail?: string, finalAnswer: string | null = null): LoopRun => ({
    stopReason,
    ...(detail === undefined ? {} : { detail }),
    finalAnswer,
    calls,
    messages,
    turns: turn,
  })

  for (;;) {
    // decide: ask the model (on the tools-disabled last turn, with no tools and a notice).
    if (options.signal?.aborted) return end('aborted', 'Stopped by the user.')
    turn += 1
    let raw: string
    try {
      const asked: Message[] = finalTurn ? [...messages, { role: 'user', content: FINAL_TURN_NOTICE }] : messages
      raw = toolstep.raw(await options.model.respond({ messages: asked, tools: finalTurn ? [] : TOOLS.specs, step: turn - 1, protocol: SETTINGS.protocol }))
    } catch (error) {
      return options.signal?.aborted ? end('aborted', errorText(error)) : end('error', `The model failed to respond: ${errorText(error)}`)
    }
    options.onEvent?.({ type: 'decide', turn, raw })

    // parse: Toolstep's parser for the wire format (then the fallback formats).
    const parsed = toolstep.parse(raw, turn, SETTINGS.protocol, loop)
    const malformed = parsed.calls.length === 0 && parsed.errors.length > 0
    parseFailures = malformed ? parseFailures + 1 : 0
    const exhausted = parseFailures > loop.maxParseRetries
    if (malformed) options.onEvent?.({ type: 'malformed', turn, errors: parsed.errors.map((e) => e.message) })
    if (malformed && !finalTurn && exhausted && loop.onParseFailure === 'error') {
      return end('error', `The output still held a malformed call after ${loop.maxParseRetries} correction${loop.maxParseRetries === 1 ? '' : 's'}: ${parsed.errors[0]?.message ?? ''}`)
    }

    // validate and execute the calls (none on the tools-disabled last turn).
    const made: { call: ToolCall; outcome: { result: string } | { error: string } }[] = []
    if (!finalTurn && parsed.calls.length > 0) {
      const checked = toolstep.validate(parsed, TOOLS.specs, loop, repeatRun)
      repeatRun = checked.repeatRun
      if (checked.repeated && loop.repeatedCall.action === 'stop') {
        return end('repeated_call', `"${checked.repeated.name}" was called ${checked.repeated.count} times in a row with the same arguments.`)
      }
      const verdicts = new Map(checked.verdicts.map((verdict) => [verdict.callId, verdict]))
      const prepared = parsed.calls.map((parsedCall): { call: ToolCall; verdict: Verdict | undefined } => {
        const verdict = verdicts.get(parsedCall.id)
        const call: ToolCall = { id: parsedCall.id, name: verdict?.name ?? parsedCall.name, arguments: verdict?.arguments ?? parsedCall.arguments }
        if (parsedCall.rawArguments !== undefined) call.rawArguments = parsedCall.rawArguments
        return { call, verdict }
      })
      // Calls run in waves: a call that `dependsOn` others waits for them, and is not run when one failed.
      const { waves, problems } = toolstep.plan(parsed.calls)
      const outcomes = new Map<number, { result: string } | { error: string }>(problems.map(([index, problem]) => [index, { error: `Not run: ${problem}.` }]))
      const failed = new Set<string>()
      const runOne = async (index: number) => {
        const { call, verdict } = prepared[index]!
        const blockedBy = parsed.calls[index]!.dependsOn?.find((id) => failed.has(id))
        const outcome = blockedBy ? { error: `Not run: the call "${blockedBy}" it depends on failed.` } : await executeCall(call, verdict, options)
        if ('error' in outcome) failed.add(call.id)
        outcomes.set(index, outcome)
      }
      for (const wave of waves) {
        if (loop.execution === 'parallel') await Promise.all(wave.map(runOne))
        else for (const index of wave) await runOne(index)
      }
      made.push(...prepared.map(({ call }, index) => ({ call, outcome: outcomes.get(index) ?? { error: 'Not run.' } })))
      for (const { call, outcome } of made) {
        const record: CallRecord = { turn, id: call.id, name: call.name, arguments: call.arguments, ...outcome }
        calls.push(record)
        options.onEvent?.({ type: 'call', call: record })
      }
    }

    // backfill: the assistant message, one tool message per call, and a correction after a malformed call.
    const text = parsed.text ? parsed.text : null
    if (made.length > 0) {
      messages.push({ role: 'assistant', content: text, tool_calls: made.map(({ call }) => call) })
      for (const { call, outcome } of made) {
        messages.push(
          'error' in outcome
            ? { role: 'tool', tool_call_id: call.id, name: call.name, content: toolstep.errorContent(outcome.error), isError: true }
            : { role: 'tool', tool_call_id: call.id, name: call.name, content: outcome.result },
        )
      }
    } else {
      messages.push({ role: 'assistant', content: text ?? raw })
    }
    if (malformed && !exhausted && !finalTurn) messages.push({ role: 'user', content: toolstep.correction(parsed) })

    // stop, or decide again.
    const answered = (parsed.calls.length === 0 && !malformed) || (malformed && exhausted && loop.onParseFailure === 'final_answer') || (finalTurn && !malformed)
    const answer = answered ? parsed.text || raw : null
    if (finalTurn) return end('max_steps', `Stopped after ${SETTINGS.maxSteps} model ${SETTINGS.maxSteps === 1 ? 'turn' : 'turns'}; the last turn was asked without tools.`, answer)
    if (answered) return end('final_answer', malformed ? 'The malformed output was taken as the final answer.' : undefined, answer)
    if (turn >= SETTINGS.maxSteps) {
      if (loop.finalTurnWithoutTools) finalTurn = true
      else return end('max_steps', `Stopped after ${SETTINGS.maxSteps} model ${SETTINGS.maxSteps === 1 ? 'turn' : 'turns'} without a final answer.`)
    }
  }
}
//#endregion

//#region export:main
/** Asks on the terminal before a dangerous tool runs; declines when there is no terminal. */
async function askOnTerminal(call: ToolCall): Promise<boolean> {
  if (!process.stdin.isTTY) return false
  const terminal = createInterface({ input: process.stdin, output: process.stderr })
  try {
    const answer = await terminal.question(`Run ${call.name}(${JSON.stringify(call.arguments)})? [y/N] `)
    return /^y(es)?$/i.test(answer.trim())
  } finally {
    terminal.close()
  }
}

/**
 * Runs the loop against the endpoint named by the environment:
 * TOOLSTEP_BASE_URL, TOOLSTEP_MODEL, TOOLSTEP_API_KEY (or OPENAI_API_KEY), TOOLSTEP_STREAM (1/0).
 * Arguments: an optional user message (default: the workspace's), `--json` for a JSON summary.
 * Exit code: 0 on a final answer, 1 otherwise, 2 on bad settings, 130 when stopped with Ctrl-C.
 */
async function main(): Promise<number> {
  const env = process.env
  const args = process.argv.slice(2)
  const json = args.includes('--json')
  const input = args.filter((arg) => arg !== '--json').join(' ') || INPUT
  const endpoint: LoopProgramEndpoint = {
    ...ENDPOINT,
    baseUrl: env.TOOLSTEP_BASE_URL || ENDPOINT.baseUrl,
    model: env.TOOLSTEP_MODEL || ENDPOINT.model,
    stream: env.TOOLSTEP_STREAM ? env.TOOLSTEP_STREAM !== '0' && env.TOOLSTEP_STREAM !== 'false' : ENDPOINT.stream,
  }
  if (!endpoint.baseUrl || !endpoint.model) {
    console.error('Set TOOLSTEP_BASE_URL (e.g. http://127.0.0.1:11434/v1) and TOOLSTEP_MODEL (e.g. qwen3:8b).')
    return 2
  }
  const apiKey = env.TOOLSTEP_API_KEY || env.OPENAI_API_KEY
  const controller = new AbortController()
  process.once('SIGINT', () => controller.abort())
  const model = toolstep.endpointModel(endpoint, { ...(apiKey ? { apiKey } : {}), signal: controller.signal })
  const print = (event: LoopEvent) => {
    if (event.type === 'decide') console.log(`\n── turn ${event.turn} (${SETTINGS.protocol}) ──\n${event.raw}`)
    else if (event.type === 'malformed') console.log(`  ! malformed call: ${event.errors.join('; ')}`)
    else console.log(`  → ${event.call.name}(${JSON.stringify(event.call.arguments)}) = ${event.call.error !== undefined ? `error: ${event.call.error}` : event.call.result}`)
  }
  const run = await runLoop({ model, input, confirm: askOnTerminal, signal: controller.signal, ...(json ? {} : { onEvent: print }) })
  if (json) {
    const { messages: _messages, ...summary } = run
    console.log(JSON.stringify(summary, null, 2))
  } else {
    console.log(`\nstop reason: ${run.stopReason}${run.detail ? ` (${run.detail})` : ''}`)
    if (run.finalAnswer !== null) console.log(`final answer: ${run.finalAnswer}`)
  }
  return run.stopReason === 'final_answer' ? 0 : run.stopReason === 'aborted' ? 130 : 1
}
//#endregion

//#region export:replay
/** One recorded model turn: the output as received, after the message the model saw last. */
interface RecordedTurn {
  step: number
  after: string
  raw: string
}

/** `role: text` of a message (a tool message also names its tool), cut at 300 chars — as Toolstep's *Save as mock model* writes it. */
function fingerprint(message: Message | undefined): string {
  if (!message) return '(no message)'
  const text =
    message.role === 'tool'
      ? `tool ${message.name}: ${message.content}`
      : `${message.role}: ${message.content ?? ''}${message.role === 'assistant' && message.tool_calls ? ` [${message.tool_calls.map((c) => c.name).join(', ')}]` : ''}`
  return text.length > 300 ? text.slice(0, 300) : text
}

/** A model that replays recorded turns, and fails naming the turn when the conversation no longer matches the recording. */
function recordedModel(turns: readonly RecordedTurn[]): LoopModel {
  return {
    async respond({ messages, step }) {
      const turn = turns.find((t) => t.step === step)
      if (!turn) throw new Error(`The recording has ${turns.length} ${turns.length === 1 ? 'turn' : 'turns'}; the loop asked for turn ${step + 1}, which was never recorded.`)
      const seen = fingerprint(messages[messages.length - 1])
      if (seen !== turn.after) throw new Error(`The conversation diverged from the recording at turn ${step + 1}: the model was recorded after "${turn.after}" but now sees "${seen}".`)
      return { kind: 'text', raw: turn.raw }
    },
  }
}
//#endregion

export { main, recordedModel, runLoop }
