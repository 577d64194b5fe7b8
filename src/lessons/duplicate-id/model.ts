import { answer, callTools, toolResults, type ModelContext, type ModelResult } from 'toolstep'

export default function model(ctx: ModelContext): ModelResult {
  if (ctx.step === 0) {
    // Both calls carry the same id: the loop has to rename one, or the results could not be told apart.
    return callTools(ctx.protocol, [
      { id: 'call_1', name: 'get_stock', arguments: { product: 'kettle' } },
      { id: 'call_1', name: 'get_stock', arguments: { product: 'toaster' } },
    ])
  }
  const results = toolResults(ctx.messages).map((m) => `${m.tool_call_id}: ${m.content}`)
  return answer(ctx.protocol, `Stock: ${results.join('; ')}`)
}
