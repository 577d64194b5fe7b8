import { callTools, type ModelContext, type ModelResult } from 'toolstep'

// Ignores every result and asks the same thing again.
export default function model(ctx: ModelContext): ModelResult {
  return callTools(ctx.protocol, [{ name: 'search_docs', arguments: { query: 'tool calling retries' } }], 'Let me search again.')
}
