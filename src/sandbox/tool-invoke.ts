/**
 * Running one loaded tool: argument aliases, the zod parse, `execute`, and the result written
 * as text. Shared by the sandbox runtime and the exported TypeScript loop (`export-kit.ts`), so a
 * tool answers the same in both. Pure apart from what the tool itself does; never rejects.
 */
import { z } from 'zod'
import type { RuntimeTool } from './collect-tools'
import { SANDBOX_ERROR_NAMES } from './error-names'
import type { SerializedError } from './protocol'
import { describeIssues, serializeError } from './user-errors'

/** Result of running one tool: the serialised result, or the error (thrown by the tool or found in its arguments). */
export type ExecuteResult = { ok: true; result: string } | { ok: false; error: SerializedError }

/**
 * Applies `argumentAliases` (`{ city_name: 'city' }`): an alias is renamed when its target is
 * absent. The engine renames too (and shows it); doing it here as well keeps direct callers and
 * code-as-action calls consistent. Returns `args` itself when nothing changes.
 */
export function renameArguments(args: unknown, renames: Record<string, string> | undefined): unknown {
  if (!renames || typeof args !== 'object' || args === null || Array.isArray(args)) return args
  let renamed: Record<string, unknown> | undefined
  for (const [alias, target] of Object.entries(renames)) {
    if (!Object.hasOwn(args, alias) || Object.hasOwn(args, target)) continue
    renamed ??= { ...(args as Record<string, unknown>) }
    renamed[target] = renamed[alias]
    delete renamed[alias]
  }
  return renamed ?? args
}

/** Renames, parses and runs; the value is returned as the tool returned it. */
export async function invokeTool(entry: RuntimeTool, args: unknown, callId: string): Promise<{ ok: true; value: unknown } | { ok: false; error: SerializedError }> {
  const parsed = await entry.schema.safeParseAsync(renameArguments(args, entry.spec.argumentAliases))
  if (!parsed.success) {
    return {
      ok: false,
      error: { name: SANDBOX_ERROR_NAMES.invalidArguments, message: `Invalid arguments for tool "${entry.spec.name}": ${describeIssues(parsed.error)}` },
    }
  }
  try {
    return { ok: true, value: await entry.execute(parsed.data, { toolCallId: callId }) }
  } catch (error) {
    return { ok: false, error: serializeError(error) }
  }
}

/**
 * Like {@link invokeTool}, but settles `done` in the same job as the tool's `execute` returns
 * whenever it can: arguments are parsed synchronously (asynchronously only for schemas with async
 * refinements), a value that is not a promise is passed on at once, and a promise's outcome
 * directly from its own reaction. In a batch a sibling may block the worker right after this
 * call's code ran; a result settled here can still be reported, one waiting behind further
 * promise jobs would be lost. `done` is called exactly once; this function never throws.
 */
export function startInvoke(entry: RuntimeTool, args: unknown, callId: string, done: (outcome: InvokeOutcome) => void): void {
  const failed = (error: unknown) => done({ ok: false, error: serializeError(error) })
  const run = (parsed: { success: true; data: unknown } | { success: false; error: z.ZodError }) => {
    if (!parsed.success) {
      done({ ok: false, error: { name: SANDBOX_ERROR_NAMES.invalidArguments, message: `Invalid arguments for tool "${entry.spec.name}": ${describeIssues(parsed.error)}` } })
      return
    }
    let value: unknown
    try {
      value = entry.execute(parsed.data, { toolCallId: callId })
    } catch (error) {
      failed(error)
      return
    }
    try {
      if (!isThenable(value)) {
        done({ ok: true, value })
        return
      }
      // A native promise's own reaction runs one job after it settles; any other thenable is
      // adopted first, as `await` would (its `then` may be user code that throws).
      const promise = value instanceof NativePromise ? value : NativePromise.resolve(value)
      void Reflect.apply(promiseThen, promise, [(resolved: unknown) => done({ ok: true, value: resolved }), failed])
    } catch (error) {
      failed(error)
    }
  }
  const input = renameArguments(args, entry.spec.argumentAliases)
  let parsed: ReturnType<typeof entry.schema.safeParse>
  try {
    parsed = entry.schema.safeParse(input)
  } catch (error) {
    if (!(error instanceof z.core.$ZodAsyncError)) {
      failed(error)
      return
    }
    void entry.schema.safeParseAsync(input).then(run, failed)
    return
  }
  run(parsed)
}

/** What {@link invokeTool} and {@link startInvoke} end with. */
export type InvokeOutcome = { ok: true; value: unknown } | { ok: false; error: SerializedError }

// Taken when this module loads: in the Node sandbox user code shares the realm and may replace them.
const NativePromise = Promise
const promiseThen = Promise.prototype.then

/** A value with a callable `then`. Reading `then` may run a getter that throws. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false
  return typeof (value as { then?: unknown }).then === 'function'
}

/** A string result is sent as-is, `undefined` as an empty string, anything else as JSON. */
export function serializeResult(name: string, value: unknown): ExecuteResult {
  if (typeof value === 'string') return { ok: true, result: value }
  if (value === undefined) return { ok: true, result: '' }
  try {
    const text = JSON.stringify(value)
    if (text === undefined) throw new Error(`a ${typeof value} has no JSON form`)
    return { ok: true, result: text }
  } catch (error) {
    return {
      ok: false,
      error: { name: SANDBOX_ERROR_NAMES.resultSerialization, message: `Tool "${name}" returned a value that cannot be written as JSON: ${serializeError(error).message}` },
    }
  }
}
