/**
 * The part of Toolstep bundled into an exported TypeScript loop (*Export → TypeScript loop* /
 * *Vitest test*): the wire formats' prompts and parsers, argument validation, the endpoint
 * client and tool invocation — the very code the playground runs, so what the exported loop
 * sends and parses is what the playground showed. The loop itself (decide → parse → validate →
 * execute → backfill) is written out readably in the exported file and calls these functions.
 *
 * Bundled at build time by the `toolstep-export-kit` Vite plugin (vite-plugins/export-kit.ts)
 * into one IIFE whose only import is `zod` (given by the exported file), so this module and
 * everything it imports must stay free of DOM and Node APIs.
 */
import { createEndpointModel, type EndpointConfig } from '../core/endpoint/index'
import { correctionMessage, errorContent as writeError, parseTurn, rawOutput, validateTurn } from '../core/loop/phases'
import { extendRepeatRun, type IdentifiedParse, type RepeatRun as CoreRepeatRun } from '../core/loop/reducer'
import type { LoopSettings } from '../core/loop/settings'
import type { Verdict } from '../core/loop/events'
import type { ModelOutput } from '../core/loop/interfaces'
import { signature } from '../core/loop/signature'
import { truncateResult } from '../core/loop/shape-result'
import { planWaves } from '../core/loop/execute-calls'
import { buildSystemPrompt } from '../core/loop/system-prompt'
import type { Message } from '../core/messages'
import type { ToolSpec } from '../core/tools/types'
import { collectTools, type RuntimeTool } from './collect-tools'
import { formatSandboxError } from './error-names'
import { invokeTool, serializeResult } from './tool-invoke'

export type { Message, ModelOutput, ToolSpec, LoopSettings, EndpointConfig }

/**
 * What the parse phase found in one model output: `protocol` (the format that matched), `calls`
 * (`id`, `name`, `arguments`, with spans into the raw text), `text` (prose around the calls) and
 * `errors` (malformed calls, phrased for the model).
 */
export type KitParse = IdentifiedParse

/** One call after validation: the tool it resolved to, the prepared arguments, why it must not run, and `confirm` for a dangerous tool. */
export type KitVerdict = Verdict

/** The loaded tools of the exported file's module: specs for the model, entries to run. */
export interface KitTools {
  specs: ToolSpec[]
  /** Runs `name` with `args`: the result as text, or the error as the loop writes it back. Never rejects. */
  run(name: string, args: Record<string, unknown>, callId: string): Promise<{ ok: true; result: string } | { ok: false; error: string }>
}

/**
 * Finds the tools among a module's exports (named exports, a default object, namespaces; see
 * collect-tools.ts). Throws an Error naming the definition that is wrong.
 */
export function loadTools(exports: Record<string, unknown>): KitTools {
  const { tools } = collectTools(exports)
  const entries = new Map<string, RuntimeTool>(tools)
  return {
    specs: [...entries.values()].map((entry) => entry.spec),
    async run(name, args, callId) {
      const entry = entries.get(name)
      if (!entry) return { ok: false, error: `Unknown tool "${name}".` }
      const outcome = await invokeTool(entry, args, callId)
      const serialized = outcome.ok ? serializeResult(name, outcome.value) : outcome
      return serialized.ok ? serialized : { ok: false, error: formatSandboxError(serialized.error) }
    },
  }
}

/** The system prompt: the workspace's own text, then the wire format's instructions with the tool list. */
export function systemPrompt(protocol: string, tools: readonly ToolSpec[], base: string): string {
  return buildSystemPrompt(protocol, tools, base)
}

/**
 * The endpoint as the model, exactly as the playground calls it (request body per wire format,
 * streamed or not, provider error messages, the timeout). `respond` rejects with an Error naming
 * the failure; `abort` cancels the call in flight.
 */
export function endpointModel(config: EndpointConfig, options: { apiKey?: string; signal?: AbortSignal }) {
  return createEndpointModel(config, { ...(options.apiKey ? { apiKey: options.apiKey } : {}), ...(options.signal ? { signal: options.signal } : {}) })
}

/** The raw text of an output: the text itself, or a native message as Chat Completions JSON. */
export function raw(output: ModelOutput): string {
  return rawOutput(output)
}

/**
 * The parse phase: the main wire format, then the fallbacks, with a generated `call_<turn>_<i>`
 * id for a call that has none (`turn` is 1-based, as in the playground's session).
 */
export function parse(rawText: string, turn: number, protocol: string, settings: LoopSettings): KitParse {
  const { type: _type, ...result } = parseTurn({ raw: rawText, protocol, settings, step: turn, validationPolicy: 'live' })
  return result
}

/** Repeated-call bookkeeping carried from turn to turn (opaque to the loop). */
export type RepeatRun = CoreRepeatRun | null

/**
 * The validate phase: tool names resolved (aliases, normalising, fuzzy when enabled), arguments
 * prepared under the validation policy (coercions, unknown arguments) and checked against the
 * JSON Schema, dangerous tools marked, and the same call repeated `repeatedCall.limit` times in a
 * row reported in `repeated`.
 */
export function validate(turn: KitParse, tools: readonly ToolSpec[], settings: LoopSettings, repeatRun: RepeatRun): { verdicts: KitVerdict[]; repeated: { name: string; count: number } | null; repeatRun: RepeatRun } {
  const event = validateTurn({
    parse: turn,
    tools: [...tools],
    settings,
    repeatRun,
    validationPolicy: 'live',
  })
  return { verdicts: event.verdicts, repeated: event.repeated ?? null, repeatRun: extendRepeatRun(repeatRun, event.verdicts.map((v) => signature(v.name, v.arguments ?? {}))) }
}

/** `Error: …` as a failed call is written back (without doubling a prefix the error has). */
export function errorContent(error: string): string {
  return writeError(error)
}

/** The user message that asks the model to send a malformed call again. */
export function correction(turn: KitParse): string {
  return correctionMessage(turn)
}

/** Cuts a long result to `maxChars` with Toolstep's visible marker. */
export function truncate(text: string, maxChars: number): string {
  return truncateResult(text, maxChars)
}

/**
 * The order calls of one output run in: waves of call indices (each wave may run concurrently),
 * each call after the calls it `dependsOn`, and `[index, problem]` for calls that can never run
 * (an unknown dependency, a cycle). Toolstep's own planner (Kahn's algorithm by levels).
 */
export function plan(calls: readonly { id: string; name: string; dependsOn?: string[] }[]): { waves: number[][]; problems: [number, string][] } {
  const { waves, problems } = planWaves(calls.map((call, index) => ({ call: { id: call.id, name: call.name, arguments: {} }, spec: null, problems: [], dependsOn: call.dependsOn ?? [], index })))
  return { waves, problems: [...problems] }
}

/** Name and arguments as stable JSON: equal for calls a user would call identical. */
export function callSignature(name: string, args: Record<string, unknown>): string {
  return signature(name, args as never)
}

/** Conversation messages, as the helpers above read and write them. */
export type { Message as KitMessage }
