/**
 * Running one loaded tool: argument aliases, the zod parse, `execute`, and the result written
 * as text. Shared by the sandbox runtime and the exported TypeScript loop (`export-kit.ts`), so a
 * tool answers the same in both. Pure apart from what the tool itself does; never rejects.
 */
import { z } from 'zod'
import { builtinsChangedError, callGuarded, runGuarded, type BuiltinsGuard, type GuardedOutcome } from './builtins-guard'
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

/**
 * Renames, parses and runs; the value is returned as the tool returned it. With `guard`, built-ins
 * the tool's code changed are put back and the call fails saying so (see builtins-guard.ts);
 * `quick` looks only quickly (one call of a big batch).
 */
export async function invokeTool(
  entry: RuntimeTool,
  args: unknown,
  callId: string,
  guard?: BuiltinsGuard,
  quick = false,
): Promise<{ ok: true; value: unknown } | { ok: false; error: SerializedError }> {
  const parsed = await entry.schema.safeParseAsync(renameArguments(args, entry.spec.argumentAliases))
  if (!parsed.success) {
    return {
      ok: false,
      error: { name: SANDBOX_ERROR_NAMES.invalidArguments, message: `Invalid arguments for tool "${entry.spec.name}": ${describeIssues(parsed.error)}` },
    }
  }
  return toolOutcome(entry, await runGuarded(guard && (quick ? guard.quick : guard.restore), () => entry.execute(parsed.data, { toolCallId: callId })))
}

/** What one run of `execute` comes to: changed built-ins first (they may explain a throw), then its value or error. */
function toolOutcome(entry: RuntimeTool, outcome: GuardedOutcome): InvokeOutcome {
  if (outcome.changes.length > 0) return { ok: false, error: builtinsChangedError(`Tool "${entry.spec.name}"`, outcome.changes) }
  return outcome.ok ? { ok: true, value: outcome.value } : { ok: false, error: serializeError(outcome.error) }
}

/**
 * Like {@link invokeTool}, but settles `done` in the same job as the tool's `execute` returns
 * whenever it can: arguments are parsed synchronously (asynchronously only for schemas with async
 * refinements), a value that is not a promise is passed on at once, and a promise's outcome
 * directly from its own reaction. In a batch a sibling may block the worker right after this
 * call's code ran; a result settled here can still be reported, one waiting behind further
 * promise jobs would be lost. `done` is called exactly once; this function never throws.
 * With `guard`, built-ins are looked at quickly ({@link BuiltinsGuard.quick}): batches run thousands of calls.
 */
export function startInvoke(entry: RuntimeTool, args: unknown, callId: string, done: (outcome: InvokeOutcome) => void, guard?: BuiltinsGuard): void {
  const failed = (error: unknown) => done({ ok: false, error: serializeError(error) })
  const run = (parsed: { success: true; data: unknown } | { success: false; error: z.ZodError }) => {
    if (!parsed.success) {
      done({ ok: false, error: { name: SANDBOX_ERROR_NAMES.invalidArguments, message: `Invalid arguments for tool "${entry.spec.name}": ${describeIssues(parsed.error)}` } })
      return
    }
    // A native promise's own reaction runs one job after it settles; any other thenable is
    // adopted first, as `await` would (its `then` may be user code that throws).
    callGuarded(guard?.quick, () => entry.execute(parsed.data, { toolCallId: callId }), (outcome) => done(toolOutcome(entry, outcome)))
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

/** A string result is sent as-is, `undefined` as an empty string, anything else as JSON. */
export function serializeResult(name: string, value: unknown): ExecuteResult {
  if (typeof value === 'string') return { ok: true, result: value }
  if (value === undefined) return { ok: true, result: '' }
  try {
    const text = JSON.stringify(value)
    if (text === undefined) throw new Error(`a ${typeof value} has no JSON form`)
    return { ok: true, result: text }
  } catch (error) {
    // JSON.stringify recurses: a value nested thousands deep (hundreds in QuickJS) overflows the
    // stack (V8's RangeError, QuickJS's InternalError). Say so, with its depth.
    const overflow = error instanceof Error && (error.name === 'RangeError' || error.name === 'InternalError') && /stack/i.test(error.message)
    const depth = overflow ? nestingDepth(value, DEPTH_TOLD) : 0
    const why = overflow ? `it is nested ${depth >= DEPTH_TOLD ? `more than ${DEPTH_TOLD.toLocaleString('en')}` : depth.toLocaleString('en')} levels deep, more than JSON.stringify can write` : serializeError(error).message
    return {
      ok: false,
      error: { name: SANDBOX_ERROR_NAMES.resultSerialization, message: `Tool "${name}" returned a value that cannot be written as JSON: ${why}` },
    }
  }
}

/** The depth {@link nestingDepth} stops counting at. */
const DEPTH_TOLD = 1_000_000

/**
 * How deep objects and arrays nest in `value` (0 for a primitive), counted without recursion and
 * up to `limit`; each object is entered once, so a cycle ends the count. Reading user objects may
 * run their getters: a getter that throws counts as a leaf.
 */
function nestingDepth(value: unknown, limit: number): number {
  const seen = new Set<object>()
  const pending: [unknown, number][] = [[value, 1]]
  let deepest = 0
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!
    if (typeof item !== 'object' || item === null || seen.has(item)) continue
    seen.add(item)
    if (depth > deepest) deepest = depth
    if (deepest >= limit) return limit
    try {
      for (const key of Object.keys(item)) pending.push([(item as Record<string, unknown>)[key], depth + 1])
    } catch {
      // A Proxy or getter that throws: nothing more to count here.
    }
  }
  return deepest
}
