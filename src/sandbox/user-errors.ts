/**
 * Turning what user code throws into located, serialisable errors: positions in the user's own
 * lines (not the wrapper's), stacks trimmed to the user's frames, and zod issues phrased briefly.
 * Shared by module loading (`tools.ts`, `model.ts`) and code-as-action blocks.
 */
import { parse as parseScript } from 'acorn'
import type { z } from 'zod'
import type { SerializedError, SourceError, SourceFile } from './protocol'
import { errorMessage } from '../core/util'
import { compileFunction } from './compile'

/** Turns a sucrase error (`Error transforming tools.ts: Unexpected token (2:12)`, `loc` 1-based) into a SourceError. */
export function syntaxError(file: SourceFile, error: unknown): SourceError {
  const raw = errorMessage(error)
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
export function locateSyntaxError(code: string): { line: number; column: number } | undefined {
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
export const FUNCTION_LINE_OFFSET: number = (() => {
  try {
    compileFunction([], 'throw new Error()', 'toolstep-probe.js')()
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
export function locate(file: SourceFile, error: unknown): { line?: number; column?: number } {
  // Guarded: a thrown proxy's traps or a getter may throw (see serializeError).
  const read = isInstance(error, Error) ? attempt(() => (error as Error).stack) : ''
  const stack = typeof read === 'string' ? read : ''
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

/**
 * `value instanceof type`, false when finding out throws (a proxy whose `getPrototypeOf` trap
 * throws, thrown at the top level, ended the CLI's sandbox process).
 */
export function isInstance(value: unknown, type: abstract new (...args: never[]) => unknown): boolean {
  return attempt(() => value instanceof type) === true
}

/** Runs `read`, returning `undefined` when it throws: user values may throw from any getter or trap. */
function attempt<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}

/** `String(value)` when that works and yields a string; `undefined` when it throws (hostile `toString`, null prototype). */
function safeString(value: unknown): string | undefined {
  const text = attempt(() => String(value))
  return typeof text === 'string' ? text : undefined
}

/**
 * Flattens anything thrown into `{name, message, stack}`; non-errors become `Error` with their
 * string form (JSON when it has one). Never throws, whatever was thrown: getters, `toString`,
 * `toJSON` and proxy traps that throw are read inside guards, so a hostile value is reported at
 * once instead of surfacing as a timeout or a dead worker.
 */
export function serializeError(error: unknown): SerializedError {
  if (isInstance(error, Error)) {
    const err = error as Error
    const name = attempt(() => err.name)
    const message = attempt(() => err.message)
    const stack = attempt(() => err.stack)
    const serialized: SerializedError = {
      name: typeof name === 'string' && name !== '' ? name : 'Error',
      // No message at all is what a throwing `message` getter leaves too.
      message: typeof message === 'string' ? message : ((message === undefined ? undefined : safeString(message)) ?? '(the error has a message that cannot be read)'),
    }
    const code = attempt(() => (err as Error & { code?: unknown }).code)
    if (code === 'ERR_ACCESS_DENIED') serialized.message = permissionMessage(serialized.message, err)
    if (typeof stack === 'string' && stack !== '') {
      const cleaned = attempt(() => cleanStack(stack))
      if (cleaned !== undefined) serialized.stack = cleaned
    }
    return serialized
  }
  if (typeof error === 'string') return { name: 'Error', message: error }
  const json = attempt(() => JSON.stringify(error))
  const message = typeof json === 'string' ? json : (safeString(error) ?? `a thrown ${describeKind(error)} that cannot be turned into text`)
  return { name: 'Error', message }
}

/**
 * Node's permission model (the CLI sandbox) throws `ERR_ACCESS_DENIED` with `permission`
 * (`FileSystemWrite`, `ChildProcess`, `WorkerThreads`, …) and `resource`: say what was refused
 * and how to allow it.
 */
function permissionMessage(message: string, error: Error): string {
  const permission = attempt(() => (error as Error & { permission?: unknown }).permission)
  const resource = attempt(() => (error as Error & { resource?: unknown }).resource)
  const what = typeof permission === 'string' && permission !== '' ? ` (${permission}${typeof resource === 'string' && resource !== '' ? `: ${resource}` : ''})` : ''
  return `Permission denied${what}: ${message}. The CLI sandbox lets user code read the Toolstep package and use the network, but not write files, start processes or start workers; run with --allow-fs-write PATH or --trust to allow more.`
}

function describeKind(value: unknown): string {
  if (value === null) return 'null'
  const kind = typeof value
  if (kind !== 'object' && kind !== 'function') return kind
  return attempt(() => Array.isArray(value)) === true ? 'array' : kind === 'function' ? 'function' : 'object'
}

/** `city: expected string, received number; unit: …` — short enough to send back to the model. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.')
      const message = issue.message.replace(/^Invalid input: /, '')
      return path ? `${path}: ${message}` : message
    })
    .join('; ')
}
