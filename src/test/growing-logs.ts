/**
 * A live run's logs as the store sees them, for tests of derivations over a growing session log.
 */
import { LoopRunner, type ModelOutput, type SessionEvent, type ToolExecutor } from '../core/loop'
import type { ToolSpec } from '../core/tools'

const echo: ToolSpec = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }
const executor: ToolExecutor = { execute: async (call) => ({ ok: true, result: JSON.stringify(call.arguments), durationMs: 0 }) }

/**
 * The log after every phase (one new array each) of a run of `turns` turns of `calls` parallel
 * `echo` calls, then a final answer. With `invalidEvery` N, every Nth call (from the first) has
 * arguments that fail validation (`{"n":"x"}`).
 */
export async function growingLogs(turns: number, calls: number, options: { invalidEvery?: number } = {}): Promise<SessionEvent[][]> {
  const invalid = (i: number) => options.invalidEvery !== undefined && i % options.invalidEvery === 0
  let turn = 0
  const output = (): ModelOutput =>
    turn++ < turns
      ? { kind: 'message', message: { content: null, tool_calls: Array.from({ length: calls }, (_, i) => ({ id: `c${turn}_${i}`, type: 'function' as const, function: { name: 'echo', arguments: invalid(i) ? '{"n":"x"}' : `{"n":${i}}` } })) } }
      : { kind: 'text', raw: 'done' }
  const runner = new LoopRunner({ model: { respond: async () => output() }, executor, clock: () => 0 })
  runner.start({ protocol: 'openai', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: turns + 2 })
  const logs = [runner.events]
  while (!runner.stopped) {
    await runner.step()
    logs.push(runner.events)
  }
  return logs
}
