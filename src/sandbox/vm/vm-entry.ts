/**
 * Entry of the runtime bundle evaluated inside the QuickJS VM (built by `scripts/vm-bundle.ts`).
 * It is the same runtime as in the Node sandbox (`../runtime.ts`: sucrase-compiled CommonJS,
 * `tool()`, zod, hooks, code-as-action), with sucrase, acorn and `compileFunction` swapped for
 * the worker-backed shims in this folder. It leaves `{ dispatch, deliver }` on
 * `globalThis.__toolstepVm`, which the worker takes (and deletes) before any user code runs.
 *
 * `dispatch(op, json)` runs one runtime operation on JSON arguments and returns its JSON result
 * (a promise of it for the async ones). Results are made by the runtime, never by user code, and
 * read and written with functions captured before user code runs.
 */
import { host } from './host'
import { deliver, installGlobals } from './globals'
import { createRuntime } from '../runtime'

installGlobals()
const runtime = createRuntime()

type Args = Record<string, unknown>

function dispatch(op: string, json: string): string | Promise<string> {
  // Code that ran outside any call (a timer) may have changed built-ins; this call must not answer for it.
  runtime.restoreBuiltins?.()
  const args = parse(json) as Args
  const reply = (work: Promise<unknown>) => apply(then, work, [(result: unknown) => stringify(result)]) as Promise<string>
  switch (op) {
    case 'load':
      return stringify(runtime.load(args.file as never, args.source as string))
    case 'callModel':
      return reply(runtime.callModel(args.request as never))
    case 'executeTool':
      return reply(runtime.executeTool(args.name as string, args.arguments as never, args.callId as string))
    case 'callRoute':
      return reply(runtime.callRoute(args.request as never))
    case 'callSummarize':
      return reply(runtime.callSummarize(args.result as string, args.context as never))
    case 'runCode': {
      const key = args.key as string
      return reply(runtime.runCode(args.code as string, args.options as never, (progress) => host.progress(key, stringify(progress))))
    }
    default:
      throw new Error(`Unknown runtime operation "${op}".`)
  }
}

// Taken before any user code runs, so user code that replaces them cannot garble the replies
// (the runtime puts built-ins back after each call, but a reply may be written before it looks).
const parse = JSON.parse
const stringify = JSON.stringify
const clock = Date.now
const then = Promise.prototype.then
const apply = Reflect.apply

/** Batched calls that settled since the worker last looked: `[key, result, durationMs]`. */
let settled: unknown[] = []

/**
 * Starts a slice of batched tool calls, JSON `[[key, name, arguments, callId], …]`, each as
 * `executeInBatch` (which never rejects); their results wait in the VM until {@link takeSettled}.
 */
function startTools(json: string): void {
  runtime.restoreBuiltins?.()
  const calls = parse(json) as [number, string, Record<string, unknown>, string][]
  for (let index = 0; index < calls.length; index++) {
    const [key, name, args, callId] = calls[index] as [number, string, Record<string, unknown>, string]
    const started = clock()
    const done = (result: unknown) => {
      settled[settled.length] = [key, result, clock() - started]
    }
    const failed = (error: unknown) => {
      let message = 'The tool call failed.'
      try {
        message = String(error)
      } catch {
        // A thrown value whose toString throws keeps the generic text.
      }
      done({ ok: false, error: { name: 'Error', message } })
    }
    try {
      // A quick look at built-ins per call: a full one costs more than a call here.
      void apply(then, (runtime.executeInBatch ?? runtime.executeTool)(name, args as never, callId), [done, failed])
    } catch (error) {
      failed(error)
    }
  }
  // What the quick looks missed is put back before anything else runs; no single call can be told to answer for it.
  runtime.restoreBuiltins?.()
}

/** The batched calls that settled since the last call, as one JSON text (`''` when none). */
function takeSettled(): string {
  if (settled.length === 0) return ''
  const taken = settled
  settled = []
  return stringify(taken)
}

;(globalThis as { __toolstepVm?: unknown }).__toolstepVm = { dispatch, deliver, startTools, takeSettled }
