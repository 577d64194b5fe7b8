/**
 * The environment-neutral core of the sandbox: compiles `tools.ts` / `model.ts` with sucrase,
 * evaluates them as CommonJS, and answers model and tool calls. The same code runs in the browser
 * Web Worker and in a Node worker thread; it never touches DOM or Node APIs.
 *
 * User code is evaluated with `new Function` in the worker's realm. That is not the isolation
 * boundary (the worker is: it can be terminated and has no access to the page), so user code may
 * use any global the worker has; it just cannot `require` anything but `toolstep` and `zod`.
 */
import { parse as parseScript } from 'acorn'
import { transform } from 'sucrase'
import { z } from 'zod'
import type { ModelOutput, ModelRequest } from '../core/loop/interfaces'
import type { JsonValue } from '../core/messages'
import * as authoring from './authoring'
import { beginModelStep } from './call-ids'
import {
  nativeAssistantMessageSchema,
  type LoadedTool,
  type SerializedError,
  type SourceError,
  type SourceFile,
} from './protocol'
import { TOOL_MARKER } from './tool-marker'

/** Result of loading one file: the tools now loaded, or the error that prevented it. */
export type LoadFileResult =
  | { ok: true; tools: LoadedTool[]; hasModel: boolean }
  | { ok: false; error: SourceError }

/** Result of running one tool: the serialised result, or the error (thrown by the tool or found in its arguments). */
export type ExecuteResult = { ok: true; result: string } | { ok: false; error: SerializedError }

/** Result of one model call. */
export type ModelCallResult = { ok: true; output: ModelOutput } | { ok: false; error: SerializedError }

/** One sandbox's loaded code and the operations on it. Not thread-safe by design: a worker runs one. */
export interface SandboxRuntime {
  /**
   * Compiles and evaluates `source` as `file`, replacing whatever was loaded from that file.
   * On failure that file's previous definitions are dropped, so stale code never runs.
   * Never throws.
   */
  load(file: SourceFile, source: string): LoadFileResult
  /** Calls `model.ts`'s default export and checks its return value. Never rejects. */
  callModel(request: ModelRequest): Promise<ModelCallResult>
  /**
   * Looks `name` up (tool name or alias), parses `args` with the tool's zod schema, runs
   * `execute`, and serialises the result (string as-is, otherwise JSON). Never rejects.
   */
  executeTool(name: string, args: Record<string, JsonValue>, callId: string): Promise<ExecuteResult>
}

/** Tool names the model may call: letters, digits, `_`, `-`, `.` (for namespaces), at most 64. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/

const MODULES: Record<string, unknown> = { toolstep: authoring, zod: { z, default: z } }

interface RuntimeTool {
  spec: LoadedTool
  schema: z.ZodType
  execute: (args: unknown, options: authoring.ToolExecutionOptions) => unknown
}

/** Thrown while collecting tools. Names the tool when there is one, so the error can be placed on its definition. */
class ToolDefinitionError extends Error {
  override name = 'ToolDefinitionError'
  constructor(
    message: string,
    readonly toolName?: string,
  ) {
    super(message)
  }
}

/**
 * Best-effort line of a tool's definition (`export const name =`, `name:` or `'name':`): the error
 * is about a value, so no stack frame points at it.
 */
function definitionLine(source: string, name: string): { line?: number; column?: number } {
  const escaped = name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')
  const pattern = new RegExp(`(?:\\b(?:const|let|var|function)\\s+${escaped}\\b|(?:^|[\\s{,])["']?${escaped}["']?\\s*:)`)
  const lines = source.split('\n')
  for (let index = 0; index < lines.length; index += 1) {
    const text = lines[index] as string
    const match = pattern.exec(text)
    if (match) return { line: index + 1, column: text.indexOf(name, match.index) + 1 }
  }
  return {}
}

/** Creates an empty runtime. */
export function createRuntime(): SandboxRuntime {
  let tools = new Map<string, RuntimeTool>()
  let aliases = new Map<string, string>()
  let model: authoring.ModelFunction | undefined

  function currentTools(): LoadedTool[] {
    return [...tools.values()].map((entry) => entry.spec)
  }

  function load(file: SourceFile, source: string): LoadFileResult {
    if (file === 'tools.ts') {
      tools = new Map()
      aliases = new Map()
    } else {
      model = undefined
    }
    const evaluated = evaluateModule(file, source)
    if (!evaluated.ok) return evaluated
    try {
      if (file === 'tools.ts') {
        const collected = collectTools(evaluated.exports)
        tools = collected.tools
        aliases = collected.aliases
      } else {
        model = findModel(evaluated.exports)
      }
    } catch (error) {
      const where = error instanceof ToolDefinitionError && error.toolName ? definitionLine(source, error.toolName) : {}
      return { ok: false, error: { file, ...where, message: serializeError(error).message } }
    }
    return { ok: true, tools: currentTools(), hasModel: model !== undefined }
  }

  async function callModel(request: ModelRequest): Promise<ModelCallResult> {
    if (!model) {
      return { ok: false, error: { name: 'Error', message: 'model.ts is not loaded (it has no default export or failed to load).' } }
    }
    beginModelStep(request.step)
    let value: unknown
    try {
      value = await model({
        messages: request.messages,
        tools: request.tools,
        step: request.step,
        protocol: request.protocol,
      })
    } catch (error) {
      return { ok: false, error: serializeError(error) }
    }
    return toModelOutput(value)
  }

  async function executeTool(name: string, args: Record<string, JsonValue>, callId: string): Promise<ExecuteResult> {
    // Map lookups, never `obj[name]`: a model calling `constructor` or `__proto__` must not resolve.
    const canonical = tools.has(name) ? name : aliases.get(name)
    const entry = canonical === undefined ? undefined : tools.get(canonical)
    if (!entry) {
      const known = [...tools.keys()].join(', ') || '(none)'
      return { ok: false, error: { name: 'UnknownToolError', message: `Unknown tool "${name}". Available tools: ${known}.` } }
    }
    const parsed = await entry.schema.safeParseAsync(args)
    if (!parsed.success) {
      return {
        ok: false,
        error: { name: 'InvalidArgumentsError', message: `Invalid arguments for tool "${entry.spec.name}": ${describeIssues(parsed.error)}` },
      }
    }
    let value: unknown
    try {
      value = await entry.execute(parsed.data, { toolCallId: callId })
    } catch (error) {
      return { ok: false, error: serializeError(error) }
    }
    return serializeResult(entry.spec.name, value)
  }

  return { load, callModel, executeTool }
}

type Evaluated = { ok: true; exports: Record<string, unknown> } | { ok: false; error: SourceError }

/** Compiles TypeScript to CommonJS and runs it. Syntax and top-level errors come back located. */
function evaluateModule(file: SourceFile, source: string): Evaluated {
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
    const run = new Function('exports', 'require', 'module', `${code}\n//# sourceURL=${file}`)
    run(module.exports, require, module)
  } catch (error) {
    const serialized = serializeError(error)
    const where = error instanceof SyntaxError ? (locateSyntaxError(code) ?? locate(file, error)) : locate(file, error)
    return { ok: false, error: { file, ...where, message: `${serialized.name}: ${serialized.message}` } }
  }
  return { ok: true, exports: module.exports }
}

/** Turns a sucrase error (`Error transforming tools.ts: Unexpected token (2:12)`, `loc` 1-based) into a SourceError. */
function syntaxError(file: SourceFile, error: unknown): SourceError {
  const raw = error instanceof Error ? error.message : String(error)
  const message = raw.replace(/^Error transforming [^:]*: /, '').replace(/ \(\d+:\d+\)$/, '')
  const loc = typeof error === 'object' && error !== null && 'loc' in error ? error.loc : undefined
  const position =
    typeof loc === 'object' && loc !== null && 'line' in loc && 'column' in loc
      ? { line: Number(loc.line), column: Math.max(1, Number(loc.column)) }
      : {}
  return { file, ...position, message: `SyntaxError: ${message}` }
}

/**
 * Where a syntax error sits that the transpiler let through (sucrase strips types without
 * validating all syntax, and `new Function` reports no position). acorn re-parses the output,
 * whose lines match the user's because sucrase keeps them; columns may be off by stripped types.
 */
function locateSyntaxError(code: string): { line: number; column: number } | undefined {
  try {
    parseScript(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true })
  } catch (error) {
    const loc = typeof error === 'object' && error !== null && 'loc' in error ? (error as { loc?: { line: number; column: number } }).loc : undefined
    if (loc) return { line: loc.line, column: loc.column + 1 }
  }
  return undefined
}

/**
 * How many lines `new Function` puts before the body, measured rather than assumed because
 * engines differ (V8 adds two: `function anonymous(…\n) {\n`).
 */
const FUNCTION_LINE_OFFSET: number = (() => {
  try {
    new Function('throw new Error()\n//# sourceURL=toolstep-probe.js')()
  } catch (error) {
    const match = /toolstep-probe\.js:(\d+)/.exec(error instanceof Error ? (error.stack ?? '') : '')
    if (match) return Number(match[1]) - 1
  }
  return 2
})()

function framePattern(file: SourceFile): RegExp {
  return new RegExp(`${file.replace('.', '\\.')}:(\\d+):(\\d+)`, 'g')
}

/** Position of the innermost frame of `error`'s stack that is in `file`, in the user's coordinates. */
function locate(file: SourceFile, error: unknown): { line?: number; column?: number } {
  const stack = error instanceof Error ? (error.stack ?? '') : ''
  const match = framePattern(file).exec(stack)
  if (!match) return {}
  const line = Number(match[1]) - FUNCTION_LINE_OFFSET
  return line >= 1 ? { line, column: Number(match[2]) } : {}
}

/**
 * Keeps the message lines and the frames in user files (the runtime's own frames say nothing to
 * the user), with line numbers corrected to the user's source.
 */
function cleanStack(stack: string): string {
  const lines = stack.split('\n')
  const firstFrame = lines.findIndex((line) => /^\s+at |@/.test(line))
  if (firstFrame === -1) return stack
  const frames = lines
    .slice(firstFrame)
    .filter((line) => /(tools|model)\.ts:\d+/.test(line))
    .map((line) =>
      line.replace(/(tools|model)\.ts:(\d+):(\d+)/g, (_all, name: string, row: string, column: string) =>
        `${name}.ts:${Math.max(1, Number(row) - FUNCTION_LINE_OFFSET)}:${column}`,
      ),
    )
  return [...lines.slice(0, firstFrame), ...frames].join('\n')
}

/** Flattens anything thrown into `{name, message, stack}`; non-errors become `Error` with their string form. */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) {
    const serialized: SerializedError = { name: error.name || 'Error', message: error.message }
    if (error.stack) serialized.stack = cleanStack(error.stack)
    return serialized
  }
  let message: string
  try {
    message = typeof error === 'string' ? error : JSON.stringify(error) ?? String(error)
  } catch {
    message = String(error)
  }
  return { name: 'Error', message }
}

function isToolLike(value: unknown): value is Record<PropertyKey, unknown> {
  if (typeof value !== 'object' || value === null) return false
  return TOOL_MARKER in value || 'execute' in value || 'inputSchema' in value
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value && 'safeParseAsync' in value
}

/**
 * Finds the tools among a module's exports: named exports made by `tool()` (or shaped like one),
 * and the entries of a default-exported object. Other named exports (helpers) are ignored.
 * Throws a {@link ToolDefinitionError} naming the tool for anything invalid or duplicated.
 */
function collectTools(exports: Record<string, unknown>): { tools: Map<string, RuntimeTool>; aliases: Map<string, string> } {
  const candidates: [string, Record<PropertyKey, unknown>][] = []
  for (const [key, value] of Object.entries(exports)) {
    if (key === 'default') continue
    if (isToolLike(value)) candidates.push([key, value])
  }
  const fallback = exports.default
  if (fallback !== undefined) {
    if (isToolLike(fallback)) {
      throw new ToolDefinitionError(
        'The default export is a single tool, so it has no name. Export it by name (`export const my_tool = tool(…)`) or as `export default { my_tool: tool(…) }`.',
      )
    }
    if (typeof fallback !== 'object' || fallback === null) {
      throw new ToolDefinitionError('The default export of tools.ts must be an object of tools, e.g. `export default { get_weather: tool(…) }`.')
    }
    for (const [key, value] of Object.entries(fallback)) {
      if (!isToolLike(value)) {
        throw new ToolDefinitionError(`"${key}" in the default export is not a tool; wrap it with tool({ description, inputSchema, execute }).`, key)
      }
      candidates.push([key, value])
    }
  }

  const tools = new Map<string, RuntimeTool>()
  const seen = new Map<string, unknown>()
  for (const [name, definition] of candidates) {
    if (seen.has(name)) {
      // `export const a = tool(…); export default { a }` names the same tool twice: not a clash.
      if (seen.get(name) === definition) continue
      throw new ToolDefinitionError(`Tool "${name}" is defined twice (as a named export and in the default export).`, name)
    }
    seen.set(name, definition)
    tools.set(name, checkTool(name, definition))
  }

  const aliases = new Map<string, string>()
  for (const [name, entry] of tools) {
    for (const alias of entry.spec.aliases ?? []) {
      if (tools.has(alias) || aliases.has(alias)) {
        throw new ToolDefinitionError(`Alias "${alias}" of tool "${name}" is already the name or alias of another tool.`, name)
      }
      aliases.set(alias, name)
    }
  }
  return { tools, aliases }
}

/** Checks one definition and converts its schema. Throws a {@link ToolDefinitionError} that names the tool. */
function checkTool(name: string, definition: Record<PropertyKey, unknown>): RuntimeTool {
  const fail = (problem: string): never => {
    throw new ToolDefinitionError(`Tool "${name}": ${problem}`, name)
  }
  if (!TOOL_NAME.test(name)) fail('names may only use letters, digits, "_", "-" and ".", at most 64 characters.')
  const { description, inputSchema, execute, dangerous, timeoutMs, aliases } = definition
  if (typeof description !== 'string') fail('`description` must be a string.')
  if (!isZodSchema(inputSchema)) fail('`inputSchema` must be a zod schema, e.g. z.object({ city: z.string() }).')
  if (typeof execute !== 'function') fail('`execute` must be a function.')
  if (dangerous !== undefined && typeof dangerous !== 'boolean') fail('`dangerous` must be true or false.')
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    fail('`timeoutMs` must be a positive whole number of milliseconds.')
  }
  if (aliases !== undefined && !(Array.isArray(aliases) && aliases.every((alias) => typeof alias === 'string' && TOOL_NAME.test(alias)))) {
    fail('`aliases` must be an array of tool names.')
  }
  const schema = inputSchema as z.ZodType
  let jsonSchema: Record<string, unknown>
  try {
    // `io: 'input'`: the model writes the input side (fields with defaults are optional to it).
    jsonSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  } catch (error) {
    return fail(`its input schema cannot be converted to JSON Schema (${serializeError(error).message}).`)
  }
  if (jsonSchema.type !== 'object') fail('`inputSchema` must be an object schema (tool arguments are a JSON object), e.g. z.object({ … }).')
  // The draft URI tells the model nothing and costs prompt space.
  delete jsonSchema.$schema
  const spec: LoadedTool = { name, description: description as string, inputSchema: jsonSchema }
  if (dangerous !== undefined) spec.dangerous = dangerous as boolean
  if (timeoutMs !== undefined) spec.timeoutMs = timeoutMs as number
  if (aliases !== undefined && (aliases as string[]).length > 0) spec.aliases = [...(aliases as string[])]
  return { spec, schema, execute: execute as RuntimeTool['execute'] }
}

/** Finds `model.ts`'s default export. Throws when it is missing or not a function. */
function findModel(exports: Record<string, unknown>): authoring.ModelFunction {
  const candidate = exports.default
  if (typeof candidate !== 'function') {
    throw new Error(
      candidate === undefined
        ? 'model.ts has no default export. Add `export default function model(ctx: ModelContext) { … }`.'
        : `The default export of model.ts must be a function of (ctx: ModelContext), not ${describeType(candidate)}.`,
    )
  }
  return candidate as authoring.ModelFunction
}

function describeType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** Checks what `model.ts` returned and turns it into a `ModelOutput`. */
function toModelOutput(value: unknown): ModelCallResult {
  if (typeof value === 'string') return { ok: true, output: { kind: 'text', raw: value } }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const candidate = { ...(value as Record<string, unknown>) }
    if (candidate.content === undefined) candidate.content = null
    // A mock author who writes `arguments: { city: 'Paris' }` means that JSON; say so on the wire.
    if (Array.isArray(candidate.tool_calls)) {
      candidate.tool_calls = candidate.tool_calls.map((call: unknown) => stringifyArguments(call))
    }
    const parsed = nativeAssistantMessageSchema.safeParse(candidate)
    if (parsed.success) return { ok: true, output: { kind: 'message', message: parsed.data } }
    return {
      ok: false,
      error: { name: 'InvalidModelOutputError', message: `model.ts returned an assistant message of the wrong shape: ${describeIssues(parsed.error)}` },
    }
  }
  return {
    ok: false,
    error: {
      name: 'InvalidModelOutputError',
      message: `model.ts must return a string or an assistant message { content, tool_calls }, not ${value === undefined ? 'undefined' : describeType(value)}.`,
    },
  }
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

/** `city: expected string, received number; unit: …` — short enough to send back to the model. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.')
      const message = issue.message.replace(/^Invalid input: /, '')
      return path ? `${path}: ${message}` : message
    })
    .join('; ')
}

/** A string result is sent as-is, `undefined` as an empty string, anything else as JSON. */
function serializeResult(name: string, value: unknown): ExecuteResult {
  if (typeof value === 'string') return { ok: true, result: value }
  if (value === undefined) return { ok: true, result: '' }
  try {
    const text = JSON.stringify(value)
    if (text === undefined) throw new Error(`a ${typeof value} has no JSON form`)
    return { ok: true, result: text }
  } catch (error) {
    return {
      ok: false,
      error: { name: 'ResultSerializationError', message: `Tool "${name}" returned a value that cannot be written as JSON: ${serializeError(error).message}` },
    }
  }
}
