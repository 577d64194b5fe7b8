/**
 * The environment-neutral core of the sandbox: compiles `tools.ts` / `model.ts` with sucrase,
 * evaluates them as CommonJS, and answers model and tool calls, the `route` / `summarize` hooks
 * of tools.ts, and code-as-action blocks (`run-code.ts`). The same code runs in the browser
 * Web Worker and in a Node worker thread; it never touches DOM or Node APIs.
 *
 * User code is evaluated with `new Function` in the worker's realm. That is not the isolation
 * boundary (the worker is: it can be terminated and has no access to the page), so user code may
 * use any global the worker has; it just cannot `require` anything but `toolstep` and `zod`.
 */
import { transform } from 'sucrase'
import { z } from 'zod'
import type { ModelOutput, ModelRequest } from '../core/loop/index'
import type { JsonValue } from '../core/messages'
import { isJsonObject } from '../core/util'
import { resolveToolName, unknownToolMessage } from '../core/validation/resolve-tool'
import * as authoring from './authoring'
import { builtinsChangedError, guardBuiltins, runGuarded, type BuiltinsGuard, type GuardedOutcome } from './builtins-guard'
import { beginModelStep } from './call-ids'
import { compileFunction } from './compile'
import { SANDBOX_ERROR_NAMES } from './error-names'
import { SandboxFinding, sandboxError, typePhrase } from './sandbox-text'
import { phrase } from '../core/util'
import { collectTools, hookFlags, locatePlace, ToolDefinitionError, type Collected, type RuntimeTool } from './collect-tools'
import {
  nativeAssistantMessageSchema,
  type CodeRunResult,
  type Hooks,
  type LoadedTool,
  type SerializedError,
  type SourceError,
  type SourceFile,
  type WireModelRequest,
} from './protocol'
import { createRequestDecoder } from './request-decoder'
import { cloneViewsAsArrays } from './messages-view'
import { findTopLevelAwait } from './top-level-await'
import { runCodeBlock, type CodeProgress } from './run-code'
import { invokeTool, serializeResult, startInvoke, type ExecuteResult } from './tool-invoke'
import { describeIssues, isInstance, locate, locateSyntaxError, serializeError, syntaxError } from './user-errors'

/** Result of loading one file: the tools now loaded, or the error that prevented it. */
export type LoadFileResult =
  | { ok: true; tools: LoadedTool[]; hasModel: boolean; hooks: Hooks }
  | { ok: false; error: SourceError }

/** Result of running one tool: the serialised result, or the error (thrown by the tool or found in its arguments). */
export type { ExecuteResult } from './tool-invoke'

/** Result of one model call. */
export type ModelCallResult = { ok: true; output: ModelOutput } | { ok: false; error: SerializedError }

/** Result of calling the `route` hook: canonical tool names, or `null` when tools.ts has no `route`. */
export type RouteCallResult = { ok: true; names: string[] | null } | { ok: false; error: SerializedError }

/** Result of calling the `summarize` hook: the summary, or `null` when tools.ts has no `summarize`. */
export type SummarizeCallResult = { ok: true; summary: string | null } | { ok: false; error: SerializedError }

/** One call of a batch as a runtime starts it; `key` names it to the `settle` callback. */
export interface StartedCall {
  key: number
  name: string
  arguments: Record<string, JsonValue>
  callId: string
  /** The call's time budget, ms (see {@link SandboxRuntime.budget}). */
  timeoutMs: number
}

/** One sandbox's loaded code and the operations on it. Not thread-safe by design: a worker runs one. */
export interface SandboxRuntime {
  /**
   * Compiles and evaluates `source` as `file`, replacing whatever was loaded from that file.
   * On failure that file's previous definitions are dropped, so stale code never runs.
   * Never throws.
   */
  load(file: SourceFile, source: string): LoadFileResult
  /**
   * Calls `model.ts`'s default export and checks its return value. `request` is a whole request,
   * or a wire request (what changed since the last one, see request-decoder.ts), applied to the
   * conversation this runtime keeps. Never rejects; a wire request out of step with the kept
   * conversation is a failed call (the host then sends everything again).
   */
  callModel(request: ModelRequest | WireModelRequest): Promise<ModelCallResult>
  /**
   * Looks `name` up (tool name or alias), applies the tool's `argumentAliases`, parses `args` with
   * its zod schema, runs `execute`, and serialises the result (string as-is, otherwise JSON).
   * Never rejects.
   */
  executeTool(name: string, args: Record<string, JsonValue>, callId: string): Promise<ExecuteResult>
  /**
   * {@link executeTool} for one call of a batch: built-ins are looked at quickly after the call
   * (`BuiltinsGuard.quick`), the batch looks fully at its end. Optional.
   */
  executeInBatch?(name: string, args: Record<string, JsonValue>, callId: string): Promise<ExecuteResult>
  /**
   * Runs a tool call as {@link executeTool} does, but calls `done` in the same job as the tool's
   * code ends (see `startInvoke` in tool-invoke.ts), so a batch can report the result before a
   * sibling's code gets to run. Optional; `tool-batch.ts` falls back to `executeTool`. Never throws.
   */
  startTool?(name: string, args: Record<string, JsonValue>, callId: string, done: (result: ExecuteResult) => void): void
  /**
   * Calls the `route` hook with `{ messages, tools, step, protocol }`. Aliases it returns are
   * turned into tool names, a namespace name (`weather`) selects every tool in it, duplicates are
   * dropped. Unknown names are an error naming them. Never rejects.
   */
  callRoute(request: ModelRequest | WireModelRequest): Promise<RouteCallResult>
  /** Calls the `summarize` hook with `(result, { tool, maxChars })`; it must return a string. Never rejects. */
  callSummarize(result: string, context: authoring.SummarizeContext): Promise<SummarizeCallResult>
  /**
   * Runs a code-as-action block with the loaded tools in scope (see `run-code.ts`). `onProgress`
   * hears each chunk of captured output and each finished tool call as they happen. Never rejects;
   * does not enforce a timeout (the host does, by terminating the worker).
   */
  runCode(code: string, options: { maxOutputChars: number }, onProgress?: (progress: CodeProgress) => void): Promise<CodeRunResult>
  /**
   * Runs `work` (which starts one operation) with `timeoutMs` (ms) as that operation's budget.
   * Only runtimes that can interrupt running code have it (the browser's QuickJS VM); without it,
   * timeouts are the host's alone (it terminates the worker).
   */
  budget?<T>(timeoutMs: number | undefined, work: () => T): T
  /**
   * Starts several tool calls at once, as {@link executeTool} would each, and calls
   * `settle(key, result, durationMs)` once per call when it has finished (`durationMs` from its
   * start, ms). Only runtimes for which one entry per call is costly have it (the browser's QuickJS
   * VM); `tool-batch.ts` falls back to `executeTool` per call. Never throws.
   */
  startTools?(calls: readonly StartedCall[], settle: (key: number, result: ExecuteResult, durationMs: number) => void): void
  /**
   * Puts back built-ins user code changed since the runtime was created and says what changed
   * (see builtins-guard.ts). Each call already does it for its own code; a worker calls this before
   * reading a request, for code that ran outside any call (a timer). Runtimes whose user code runs
   * in another realm (the QuickJS VM) do not need it.
   */
  restoreBuiltins?(): string[]
}

const MODULES: Record<string, unknown> = { toolstep: authoring, zod: { z, default: z } }

/**
 * Creates an empty runtime. Call it before any user code runs in this realm: it takes the
 * snapshot of the built-ins that each call's changes are undone against (see builtins-guard.ts).
 */
export function createRuntime(): SandboxRuntime {
  cloneViewsAsArrays()
  const guard = guardBuiltins()
  let tools = new Map<string, RuntimeTool>()
  let hooks: Collected['hooks'] = {}
  let model: authoring.ModelFunction | undefined
  // The conversation of the last wire request: each one carries only what changed.
  const requests = createRequestDecoder()
  /** `request` as user code receives it, or the error that the wire request was out of step. */
  function decode(request: ModelRequest | WireModelRequest): { ok: true; request: ModelRequest } | { ok: false; error: SerializedError } {
    if (!('conversation' in request)) return { ok: true, request }
    const decoded = requests.decode(request)
    return decoded.ok ? decoded : { ok: false, error: { name: 'Error', message: decoded.error } }
  }

  /** The loaded tools' specs, made once per load: every call looks its tool up in them. */
  let specs: LoadedTool[] | undefined
  function currentTools(): LoadedTool[] {
    specs ??= [...tools.values()].map((entry) => entry.spec)
    return specs
  }

  function load(file: SourceFile, source: string): LoadFileResult {
    if (file === 'tools.ts') {
      tools = new Map()
      specs = undefined
      hooks = {}
    } else {
      model = undefined
    }
    const evaluated = evaluateModule(file, source, guard)
    if (!evaluated.ok) return evaluated
    try {
      if (file === 'tools.ts') {
        const collected = collectTools(evaluated.exports, source)
        // Reading the exports may run user getters.
        const changes = guard.restore()
        if (changes.length > 0) return { ok: false, error: { file, message: builtinsChangedError(`${file} at its top level`, changes).message } }
        tools = collected.tools
        specs = undefined
        hooks = collected.hooks
      } else {
        model = findModel(evaluated.exports)
      }
    } catch (error) {
      const changes = guard.restore()
      if (changes.length > 0) return { ok: false, error: { file, message: builtinsChangedError(`${file} at its top level`, changes).message } }
      // Reading the exports runs user getters, which may throw anything (a hostile proxy too).
      const where = isInstance(error, ToolDefinitionError) && (error as ToolDefinitionError).place ? locatePlace(source, (error as ToolDefinitionError).place!) : {}
      return { ok: false, error: { file, ...where, message: serializeError(error).message, ...(isInstance(error, SandboxFinding) ? { phrase: (error as SandboxFinding).phrase } : {}) } }
    }
    return { ok: true, tools: [...currentTools()], hasModel: model !== undefined, hooks: hookFlags(hooks) }
  }

  async function callModel(wire: ModelRequest | WireModelRequest): Promise<ModelCallResult> {
    const decoded = decode(wire)
    if (!decoded.ok) return decoded
    const { request } = decoded
    if (!model) {
      return { ok: false, error: sandboxError('Error', 'modelNotLoaded') }
    }
    beginModelStep(request.step)
    const called = model
    const outcome = await runGuarded(guard.restore, () =>
      called({
        messages: request.messages,
        tools: request.tools,
        step: request.step,
        protocol: request.protocol,
      }),
    )
    return outcome.ok && outcome.changes.length === 0 ? toModelOutput(outcome.value) : { ok: false, error: failure('model.ts', outcome) }
  }

  /** The tool `name` refers to: its name or a declared alias, by the engine's own rule (never an inherited property). */
  function resolve(name: string): RuntimeTool | undefined {
    const found = resolveToolName(name, currentTools(), { match: 'declared' })
    return found && tools.get(found.spec.name)
  }

  function unknownTool(name: string): SerializedError {
    return { name: SANDBOX_ERROR_NAMES.unknownTool, message: unknownToolMessage(name, currentTools()) }
  }

  async function executeTool(name: string, args: Record<string, JsonValue>, callId: string, inBatch = false): Promise<ExecuteResult> {
    const entry = resolve(name)
    if (!entry) return { ok: false, error: unknownTool(name) }
    const outcome = await invokeTool(entry, args, callId, guard, inBatch)
    return outcome.ok ? serializeResult(entry.spec.name, outcome.value) : outcome
  }

  function startTool(name: string, args: Record<string, JsonValue>, callId: string, done: (result: ExecuteResult) => void): void {
    const entry = resolve(name)
    if (!entry) {
      done({ ok: false, error: unknownTool(name) })
      return
    }
    startInvoke(entry, args, callId, (outcome) => done(outcome.ok ? serializeResult(entry.spec.name, outcome.value) : outcome), guard)
  }

  async function callRoute(wire: ModelRequest | WireModelRequest): Promise<RouteCallResult> {
    const decoded = decode(wire)
    if (!decoded.ok) return decoded
    const { request } = decoded
    const route = hooks.route as ((context: authoring.RouteContext) => unknown) | undefined
    if (!route) return { ok: true, names: null }
    const outcome = await runGuarded(guard.restore, () => route({ messages: request.messages, tools: request.tools, step: request.step, protocol: request.protocol }))
    if (!outcome.ok || outcome.changes.length > 0) return { ok: false, error: failure('route() in tools.ts', outcome) }
    const value = outcome.value
    if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
      return {
        ok: false,
        error: sandboxError(SANDBOX_ERROR_NAMES.invalidRoute, 'routeNotNames', { type: typePhrase(value) }),
      }
    }
    const names: string[] = []
    const unknown: string[] = []
    for (const name of value as string[]) {
      const entry = resolve(name)
      const selected = entry ? [entry.spec.name] : [...tools.keys()].filter((toolName) => toolName.startsWith(`${name}.`))
      if (selected.length === 0) unknown.push(name)
      for (const toolName of selected) if (!names.includes(toolName)) names.push(toolName)
    }
    if (unknown.length > 0) {
      const known = [...tools.keys()].join(', ')
      return {
        ok: false,
        error: sandboxError(SANDBOX_ERROR_NAMES.invalidRoute, 'routeUnknown', {
          count: unknown.length,
          names: unknown.map((name) => `"${name}"`).join(', '),
          known: known === '' ? phrase('noTools') : known,
        }),
      }
    }
    return { ok: true, names }
  }

  async function callSummarize(result: string, context: authoring.SummarizeContext): Promise<SummarizeCallResult> {
    const summarize = hooks.summarize as ((result: string, context: authoring.SummarizeContext) => unknown) | undefined
    if (!summarize) return { ok: true, summary: null }
    const outcome = await runGuarded(guard.restore, () => summarize(result, { tool: context.tool, maxChars: context.maxChars }))
    if (!outcome.ok || outcome.changes.length > 0) return { ok: false, error: failure('summarize() in tools.ts', outcome) }
    const value = outcome.value
    if (typeof value !== 'string') {
      return { ok: false, error: sandboxError(SANDBOX_ERROR_NAMES.invalidSummary, 'summaryNotString', { type: typePhrase(value) }) }
    }
    return { ok: true, summary: value }
  }

  async function runCode(code: string, options: { maxOutputChars: number }, onProgress?: (progress: CodeProgress) => void): Promise<CodeRunResult> {
    const result = await runBlock(code, options, onProgress)
    // The tools it called answer for their own changes; what is left was the block's.
    const changes = guard.restore()
    if (changes.length === 0) return result
    return { ok: false, output: result.output, truncated: result.truncated, error: builtinsChangedError('The code block', changes).message, calls: result.calls }
  }

  function runBlock(code: string, options: { maxOutputChars: number }, onProgress?: (progress: CodeProgress) => void): Promise<CodeRunResult> {
    let counter = 0
    return runCodeBlock(code, {
      maxOutputChars: options.maxOutputChars,
      toolNames: [...tools.keys()],
      onProgress,
      async call(name, args) {
        const entry = resolve(name)
        if (!entry) return { ok: false, error: unknownTool(name) }
        // Nobody can be asked to confirm in the middle of a block, so a dangerous tool never runs from code.
        if (entry.spec.dangerous) {
          return {
            ok: false,
            error: {
              name: SANDBOX_ERROR_NAMES.dangerousTool,
              message: `Tool "${name}" is marked dangerous and needs the user's confirmation, so it cannot be called from code. Call it as a normal tool call instead.`,
            },
          }
        }
        counter += 1
        const outcome = await invokeTool(entry, args ?? {}, `code_call_${counter}`, guard)
        if (!outcome.ok) return outcome
        const serialized = serializeResult(name, outcome.value)
        return { ok: true, value: outcome.value, text: serialized.ok ? serialized.result : serialized.error.message }
      },
    })
  }

  const executeInBatch = (name: string, args: Record<string, JsonValue>, callId: string) => executeTool(name, args, callId, true)
  return { load, callModel, executeTool: (name, args, callId) => executeTool(name, args, callId), executeInBatch, startTool, callRoute, callSummarize, runCode, restoreBuiltins: () => guard.restore() }
}

type Evaluated = { ok: true; exports: Record<string, unknown> } | { ok: false; error: SourceError }

/** The error of user code that ended with `outcome`: the built-ins it changed first (they may explain a throw), else what it threw. */
function failure(who: string, outcome: GuardedOutcome): SerializedError {
  return outcome.changes.length > 0 ? builtinsChangedError(who, outcome.changes) : serializeError(outcome.ok ? undefined : outcome.error)
}

/**
 * Compiles TypeScript to CommonJS and runs it. Syntax and top-level errors come back located;
 * built-ins the top level changed are put back at once and fail the load.
 */
function evaluateModule(file: SourceFile, source: string, guard: BuiltinsGuard): Evaluated {
  let code: string
  try {
    code = transform(source, { transforms: ['typescript', 'imports'], filePath: file }).code
  } catch (error) {
    return { ok: false, error: syntaxError(file, error) }
  }
  const module: { exports: Record<string, unknown> } = { exports: {} }
  const require = (id: string): unknown => {
    if (Object.hasOwn(MODULES, id)) return MODULES[id]
    throw new Error(`Cannot import "${id}" in ${file}: the sandbox only provides 'toolstep' and 'zod'.`)
  }
  try {
    // sourceURL names the frames in stack traces, so errors can be located in the user's file.
    const run = compileFunction(['exports', 'require', 'module'], code, file)
    run(module.exports, require, module)
  } catch (error) {
    const changes = guard.restore()
    if (changes.length > 0) return { ok: false, error: { file, message: builtinsChangedError(`${file} at its top level`, changes).message } }
    const serialized = serializeError(error)
    // `await (x)` and `await(x)` are valid script syntax (a call of a function named `await`):
    // they fail only when run, with a ReferenceError, and are the same mistake as `await x`.
    const syntax = isInstance(error, SyntaxError)
    const awaitAt = syntax || (isInstance(error, ReferenceError) && /\bawait\b/.test(serialized.message)) ? findTopLevelAwait(code) : undefined
    const where = awaitAt ?? (syntax ? (locateSyntaxError(code) ?? locate(file, error)) : locate(file, error))
    const message = awaitAt ? TOP_LEVEL_AWAIT_MESSAGE : `${serialized.name}: ${serialized.message}`
    return { ok: false, error: { file, ...inUserColumns(where, source, file), message } }
  }
  const changes = guard.restore()
  if (changes.length > 0) return { ok: false, error: { file, message: builtinsChangedError(`${file} at its top level`, changes).message } }
  return { ok: true, exports: module.exports }
}


/** What a load says of `await` outside any async function, in both sandboxes (QuickJS and V8 word it differently). */
export const TOP_LEVEL_AWAIT_MESSAGE = "top-level await is not supported; move it into a tool's execute or the model function"

const MARKER = '/*toolstep:line-1*/'

/**
 * A position in sucrase's output turned into one in `source`: sucrase puts its prefix (`"use strict"`,
 * interop helpers) at the start of line 1, so columns there are shifted by its length, measured by
 * compiling again with a comment marking where the user's code begins (sucrase keeps comments).
 * After a `#!` line the prefix goes on line 2 instead, which starts with it too.
 */
function inUserColumns(where: { line?: number; column?: number }, source: string, file: SourceFile): { line?: number; column?: number } {
  if (where.column === undefined || where.line === undefined) return where
  const shebang = source.startsWith('#!')
  if (where.line !== (shebang ? 2 : 1)) return where
  let prefix = 0
  try {
    const marked = shebang ? source.replace(/\n/, `\n${MARKER}`) : `${MARKER}${source}`
    const code = transform(marked, { transforms: ['typescript', 'imports'], filePath: file }).code
    const at = code.indexOf(MARKER)
    prefix = at - (shebang ? code.indexOf('\n') + 1 : 0)
  } catch {
    return where
  }
  return prefix > 0 ? { line: where.line, column: where.column - prefix > 1 ? where.column - prefix : 1 } : where
}

/** Finds `model.ts`'s default export. Throws when it is missing or not a function. */
function findModel(exports: Record<string, unknown>): authoring.ModelFunction {
  const candidate = exports.default
  if (candidate === undefined) throw new Error('model.ts has no default export. Add `export default function model(ctx: ModelContext) { … }`.')
  if (typeof candidate !== 'function') throw new SandboxFinding('modelExportNotFunction', { type: typePhrase(candidate) })
  return candidate as authoring.ModelFunction
}

/** Checks what `model.ts` returned and turns it into a `ModelOutput`. */
function toModelOutput(value: unknown): ModelCallResult {
  if (typeof value === 'string') return { ok: true, output: { kind: 'text', raw: value } }
  if (isJsonObject(value)) {
    const candidate: Record<string, unknown> = { ...value }
    // An object with neither field is a mistake, not an empty answer.
    if (!Object.hasOwn(candidate, 'content') && !Object.hasOwn(candidate, 'tool_calls')) {
      const keys = Object.keys(candidate)
      return {
        ok: false,
        error: keys.length
          ? sandboxError(SANDBOX_ERROR_NAMES.invalidModelOutput, 'modelNoFieldsHas', { keys: keys.slice(0, 5).join(', ') })
          : sandboxError(SANDBOX_ERROR_NAMES.invalidModelOutput, 'modelNoFields'),
      }
    }
    if (candidate.content === undefined) candidate.content = null
    // A mock author who writes `arguments: { city: 'Paris' }` means that JSON; say so on the wire.
    if (Array.isArray(candidate.tool_calls)) {
      candidate.tool_calls = candidate.tool_calls.map((call: unknown) => stringifyArguments(call))
    }
    const parsed = nativeAssistantMessageSchema.safeParse(candidate)
    if (parsed.success) return { ok: true, output: { kind: 'message', message: parsed.data } }
    return {
      ok: false,
      error: { name: SANDBOX_ERROR_NAMES.invalidModelOutput, message: `model.ts returned an assistant message of the wrong shape: ${describeIssues(parsed.error)}` },
    }
  }
  return { ok: false, error: sandboxError(SANDBOX_ERROR_NAMES.invalidModelOutput, 'modelNotOutput', { type: typePhrase(value) }) }
}

function stringifyArguments(call: unknown): unknown {
  if (typeof call !== 'object' || call === null || !('function' in call)) return call
  const fn = call.function
  if (typeof fn !== 'object' || fn === null || !('arguments' in fn) || typeof fn.arguments === 'string') return call
  let text: string
  try {
    text = JSON.stringify(fn.arguments) ?? ''
  } catch {
    return call
  }
  return { ...call, function: { ...fn, arguments: text } }
}


