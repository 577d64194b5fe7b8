/** The mock model tests drive the loop with: a fixed script of outputs, and a record of what it was asked. */
import type { Model, ModelOutput, ModelRequest } from '../core/loop/index'

/** One scripted turn: an output, or a function of the request (to answer what the model was sent). */
export type ScriptedOutput = ModelOutput | ((request: ModelRequest) => ModelOutput)

/**
 * A `Model` whose i-th `respond` returns `outputs[i]` (the last one repeats once the script runs
 * out); every request it received is kept in `requests`, in order.
 */
export function scripted(outputs: readonly ScriptedOutput[]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = []
  return {
    requests,
    async respond(request) {
      requests.push(request)
      const out = outputs[Math.min(requests.length - 1, outputs.length - 1)]
      if (out === undefined) throw new Error('scripted model has no outputs')
      return typeof out === 'function' ? out(request) : out
    },
  }
}
