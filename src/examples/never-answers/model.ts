import { callTools, type ModelContext, type ModelResult } from 'toolstep'

// A model that is never satisfied: it asks for one more page at every step and never answers.
// The page changes each time, so this is not a repeated call; only max_steps stops the loop.

export default function model(ctx: ModelContext): ModelResult {
  return callTools(ctx.protocol, [{ name: 'search', arguments: { query: 'tool calling', page: ctx.step + 1 } }], 'Just one more page…')
}
