import { callTools, type ModelContext, type ModelResult } from 'toolstep'

// Every output has prose and a <tool_call> whose JSON is cut off: each correction is ignored.
export default function model(ctx: ModelContext): ModelResult {
  return callTools(ctx.protocol, [{ name: 'search_docs', arguments: '{"query": "retries' }], 'Tool calls are retried when the output cannot be parsed.')
}
