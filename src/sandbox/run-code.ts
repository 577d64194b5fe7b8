/**
 * Code-as-action: runs a JavaScript/TypeScript block written by the model, with the tools in
 * scope as async functions (`await get_weather({ city: 'Paris' })`, namespaced tools as nested
 * objects: `await weather.current({ … })`) and a `console` whose lines are captured.
 *
 * Scoping here is best effort, not a security boundary. The block already runs inside the
 * sandbox worker (no DOM, no page, killable), which is the boundary. On top of that the block is
 * compiled as a strict-mode async function whose parameters shadow the worker's dangerous
 * globals (`self`, `globalThis`, `postMessage`, `fetch`, `require`, `process`, …), so honest code
 * sees only the tools; determined code can still reach the global object (for example through
 * `(function () {}).constructor('return this')()`).
 *
 * Timeouts are not handled here: a hung block is stopped by the host terminating the worker.
 * `onProgress` reports output and tool calls as they happen so that what was captured survives.
 *
 * Pure: no DOM or Node APIs; runs in the sandbox worker and in unit tests.
 */
import { transform } from 'sucrase'
import type { CodeRunResult, SerializedError } from './protocol'
import { compileFunction } from './compile'
import { formatSandboxError } from './error-names'
import { locateSyntaxError, serializeError } from './user-errors'
import { errorMessage, isJsonObject } from '../core/util'

/** Something a running block reported: a chunk appended to its output, or a finished tool call. */
export type CodeProgress =
  | { kind: 'output'; text: string; truncated: boolean }
  | { kind: 'call'; call: CodeRunResult['calls'][number] }

/** What {@link runCodeBlock} needs from the runtime. */
export interface CodeBlockOptions {
  /** Captured console output is cut at this many characters. */
  maxOutputChars: number
  /** Full names of the tools to put in scope (`get_weather`, `weather.current`). */
  toolNames: readonly string[]
  /**
   * Runs one tool call: `value` is what the tool returned (handed to the code as is), `text` its
   * serialised form (recorded). Must not throw.
   */
  call(
    name: string,
    args: unknown,
  ): Promise<{ ok: true; value: unknown; text: string } | { ok: false; error: SerializedError }>
  /** Hears each output chunk and finished call as it happens. */
  onProgress?: ((progress: CodeProgress) => void) | undefined
}


/** The file name stack frames of a block carry; used to find the block's own line in a stack. */
const CODE_FILE = 'toolstep-code.js'

/**
 * Globals shadowed by parameters of the same name (set to `undefined`). Not `eval` or
 * `arguments`: strict mode forbids them as parameter names.
 */
const SHADOWED_GLOBALS = [
  'self',
  'globalThis',
  'window',
  'global',
  'parent',
  'top',
  'frames',
  'opener',
  'postMessage',
  'onmessage',
  'onerror',
  'addEventListener',
  'removeEventListener',
  'dispatchEvent',
  'close',
  'importScripts',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebTransport',
  'EventSource',
  'Worker',
  'SharedWorker',
  'ServiceWorker',
  'BroadcastChannel',
  'MessageChannel',
  'MessagePort',
  'indexedDB',
  'caches',
  'navigator',
  'location',
  'localStorage',
  'sessionStorage',
  'document',
  'require',
  'module',
  'exports',
  'process',
  'Buffer',
  'Deno',
  'Bun',
  'Function',
  'WebAssembly',
] as const

/** Words that cannot be parameter names in strict code, so tools named like them are not put in scope. */
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'import in instanceof new null return super switch this throw true try typeof var void while with yield let static ' +
    'implements interface package private protected public await arguments eval undefined NaN Infinity'
  ).split(' '),
)

/** True when `name` can be a parameter of a strict-mode function. */
export function isBindableName(name: string): boolean {
  return /^[A-Za-z_$][\w$]*$/.test(name) && !RESERVED.has(name)
}

/**
 * Lines the engine puts before the body of a compiled function (V8: `async function
 * anonymous(…\n) {\n`), measured rather than assumed because engines differ.
 */
const BODY_LINE_OFFSET: number = (() => {
  // A plain function has the same header shape as an async one and throws synchronously, so it can be probed here.
  try {
    compileFunction(['a', 'b'], 'throw new Error()', CODE_FILE)()
  } catch (error) {
    const match = new RegExp(`${CODE_FILE.replace('.', '\\.')}:(\\d+)`).exec(error instanceof Error ? (error.stack ?? '') : '')
    if (match) return Number(match[1]) - 1
  }
  return 2
})()

/** Removes one surrounding Markdown fence (```js … ```), in case the caller passed the block with it. */
function stripFence(code: string): string {
  const match = /^\s*```[\w-]*[^\n]*\n([\s\S]*?)\n?```\s*$/.exec(code)
  return match ? (match[1] as string) : code
}

/** Where in the block each failed tool call was made, for errors the code did not catch. */
const CALL_SITES = new WeakMap<Error, Error>()

/** Line of the block's innermost frame in `error`'s stack (or its call site), 1-based in the block's own lines. */
function lineInBlock(error: unknown): number | undefined {
  const pattern = new RegExp(`${CODE_FILE.replace('.', '\\.')}:(\\d+):\\d+`)
  const stacks = error instanceof Error ? [error.stack ?? '', CALL_SITES.get(error)?.stack ?? ''] : []
  for (const stack of stacks) {
    const match = pattern.exec(stack)
    if (!match) continue
    const line = Number(match[1]) - BODY_LINE_OFFSET
    if (line >= 1) return line
  }
  return undefined
}

function describeThrown(error: unknown): string {
  const serialized = serializeError(error)
  return `${serialized.name}: ${serialized.message}`
}

/**
 * One console argument as text: strings as-is, errors as `Name: message`, other values as JSON
 * when possible. Never throws, even for values whose getters, `toJSON` or `toString` throw.
 */
export function formatValue(value: unknown): string {
  try {
    return formatValueUnguarded(value)
  } catch {
    const serialized = serializeError(value)
    return serialized.name === 'Error' ? serialized.message : `${serialized.name}: ${serialized.message}`
  }
}

function formatValueUnguarded(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined) return 'undefined'
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'symbol') return value.toString()
  if (typeof value === 'function') return `[Function${value.name ? `: ${value.name}` : ''}]`
  if (value instanceof Error) return `${value.name}: ${value.message}`
  const seen = new WeakSet<object>()
  try {
    const text = JSON.stringify(value, (_key, entry: unknown) => {
      if (typeof entry === 'bigint') return `${entry}n`
      if (typeof entry === 'object' && entry !== null) {
        if (seen.has(entry)) return '[Circular]'
        seen.add(entry)
      }
      return entry
    })
    return text ?? String(value)
  } catch {
    return String(value)
  }
}

/** Makes arguments safe to post to the host: JSON data only, a non-object wrapped as `{ value }`. */
function recordableArguments(args: unknown): Record<string, unknown> {
  let data: unknown
  try {
    data = JSON.parse(JSON.stringify(args ?? {}) ?? '{}')
  } catch {
    data = { value: formatValue(args) }
  }
  return isJsonObject(data) ? data : { value: data }
}

/**
 * The values the block sees, by parameter name: shadowed globals (undefined), `console`, and the
 * tools. Namespaced tools become nested objects under their first segment; a tool whose first
 * segment is not a valid identifier (e.g. `get-weather`) is not reachable from code.
 */
function buildScope(options: CodeBlockOptions, record: (call: CodeRunResult['calls'][number]) => void, console: unknown): Map<string, unknown> {
  const scope = new Map<string, unknown>()
  for (const name of SHADOWED_GLOBALS) scope.set(name, undefined)
  scope.set('console', console)

  const makeFunction = (name: string) => {
    // An async function, so that V8's async stack traces lead from a failed call back to the block's line.
    const run = async (args: unknown, site: Error): Promise<unknown> => {
      const started = performance.now()
      const outcome = await options.call(name, args)
      const durationMs = Math.max(0, Math.round(performance.now() - started))
      const recorded = recordableArguments(args)
      if (outcome.ok) {
        record({ name, arguments: recorded, result: outcome.text, durationMs })
        return outcome.value
      }
      record({ name, arguments: recorded, error: formatSandboxError(outcome.error), durationMs })
      const error = new Error(outcome.error.message)
      // Keep the tool's own error name (TypeError, RangeError, …) so the code can tell failures apart.
      error.name = outcome.error.name
      CALL_SITES.set(error, site)
      throw error
    }
    const fn = (args?: unknown): Promise<unknown> => {
      // Taken synchronously, while the block's own frame is on the stack: the rejection's stack
      // will not lead back to it (the unhandled-rejection guard below hides the awaiting frame).
      const promise = run(args, new Error())
      // A call the code never awaits must not become an unhandled rejection (which would end a
      // Node worker); the code still sees the rejection when it does await.
      promise.catch(() => undefined)
      return promise
    }
    Object.defineProperty(fn, 'name', { value: name })
    return fn
  }

  for (const fullName of options.toolNames) {
    const segments = fullName.split('.')
    const root = segments[0] as string
    if (!isBindableName(root)) continue
    const leaf = makeFunction(fullName)
    if (segments.length === 1) {
      // A tool named like a namespace keeps the namespace's members as properties.
      const existing = scope.get(root)
      if (typeof existing === 'object' && existing !== null && existing !== console) Object.assign(leaf, existing)
      scope.set(root, leaf)
      continue
    }
    let node = scope.get(root)
    if ((typeof node !== 'object' && typeof node !== 'function') || node === null || node === console) {
      node = Object.create(null) as Record<string, unknown>
      scope.set(root, node)
    }
    for (const segment of segments.slice(1, -1)) {
      const holder = node as Record<string, unknown>
      let next = holder[segment]
      if ((typeof next !== 'object' && typeof next !== 'function') || next === null) {
        next = Object.create(null) as Record<string, unknown>
        holder[segment] = next
      }
      node = next
    }
    const holder = node as Record<string, unknown>
    const last = segments[segments.length - 1] as string
    const existing = holder[last]
    if (typeof existing === 'object' && existing !== null) Object.assign(leaf, existing)
    holder[last] = leaf
  }
  return scope
}

/**
 * Compiles `code` (TypeScript types stripped) as the body of a strict async function and runs
 * it with only the tools and a capturing `console` in scope. Never rejects: a compile error or a
 * throw from the code is `ok: false` with the message and its line in the block
 * (`TypeError: x is not a function (line 3)`).
 */
export async function runCodeBlock(source: string, options: CodeBlockOptions): Promise<CodeRunResult> {
  const calls: CodeRunResult['calls'] = []
  let output = ''
  let truncated = false

  const append = (line: string): void => {
    if (truncated) return
    let chunk = output === '' ? line : `\n${line}`
    if (output.length + chunk.length > options.maxOutputChars) {
      chunk = chunk.slice(0, Math.max(0, options.maxOutputChars - output.length))
      truncated = true
    }
    output += chunk
    options.onProgress?.({ kind: 'output', text: chunk, truncated })
  }
  const level = (prefix: string) => (...values: unknown[]) => append(prefix + values.map(formatValue).join(' '))
  const console = Object.freeze({
    log: level(''),
    info: level(''),
    debug: level(''),
    warn: level('[warn] '),
    error: level('[error] '),
  })
  const record = (call: CodeRunResult['calls'][number]): void => {
    calls.push(call)
    options.onProgress?.({ kind: 'call', call })
  }
  const finish = (error?: string): CodeRunResult => ({
    ok: error === undefined,
    output,
    truncated,
    ...(error === undefined ? {} : { error }),
    calls: [...calls],
  })

  const code = stripFence(source)
  let compiled: string
  try {
    compiled = transform(code, { transforms: ['typescript'] }).code
  } catch (error) {
    const raw = errorMessage(error)
    const loc = typeof error === 'object' && error !== null && 'loc' in error ? (error as { loc?: { line?: number } }).loc : undefined
    const message = raw.replace(/^Error transforming [^:]*: /, '').replace(/ \(\d+:\d+\)$/, '')
    return finish(`SyntaxError: ${message}${loc?.line ? ` (line ${loc.line})` : ''}`)
  }

  const scope = buildScope(options, record, console)
  let body: (...values: unknown[]) => Promise<unknown>
  try {
    // "use strict" on the block's first line keeps line numbers, and stops sloppy-mode `this` from being the global object.
    body = compileFunction([...scope.keys()], `'use strict'; ${compiled}`, CODE_FILE, { async: true }) as typeof body
  } catch (error) {
    const where = error instanceof SyntaxError ? locateSyntaxError(compiled) : undefined
    return finish(`${describeThrown(error)}${where ? ` (line ${where.line})` : ''}`)
  }
  try {
    await body.call(undefined, ...scope.values())
  } catch (error) {
    const line = lineInBlock(error)
    return finish(`${describeThrown(error)}${line === undefined ? '' : ` (line ${line})`}`)
  }
  return finish()
}
