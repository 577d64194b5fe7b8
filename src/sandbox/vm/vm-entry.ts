/**
 * Entry of the runtime bundle evaluated inside the QuickJS VM (built by `scripts/vm-bundle.ts`).
 * It is the same runtime as in the Node sandbox (`../runtime.ts`: sucrase-compiled CommonJS,
 * `tool()`, zod, hooks, code-as-action), with sucrase, acorn and `compileFunction` swapped for
 * the worker-backed shims in this folder. It leaves `{ dispatch, deliver }` on
 * `globalThis.__toolstepVm`, which the worker takes (and deletes) before any user code runs.
 *
 * `dispatch(op, json)` runs one runtime operation on JSON arguments and returns its JSON result
 * (a promise of it for the async ones). Results are made by the runtime, never by user code.
 */
import { host } from './host'
import { deliver, installGlobals } from './globals'
import { createRuntime } from '../runtime'

installGlobals()
const runtime = createRuntime()

type Args = Record<string, unknown>

function dispatch(op: string, json: string): string | Promise<string> {
  const args = JSON.parse(json) as Args
  const reply = (work: Promise<unknown>) => work.then((result) => JSON.stringify(result))
  switch (op) {
    case 'load':
      return JSON.stringify(runtime.load(args.file as never, args.source as string))
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
      return reply(runtime.runCode(args.code as string, args.options as never, (progress) => host.progress(key, JSON.stringify(progress))))
    }
    default:
      throw new Error(`Unknown runtime operation "${op}".`)
  }
}

;(globalThis as { __toolstepVm?: unknown }).__toolstepVm = { dispatch, deliver }
