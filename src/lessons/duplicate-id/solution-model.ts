import { answer, callTools, toolResults, type ModelContext, type ModelResult } from 'toolstep'

export default function model(ctx: ModelContext): ModelResult {
  if (ctx.step === 0) {
    // No id given: callTools asks nextCallId() for a fresh one per call.
    return callTools(ctx.protocol, [
      { name: 'get_stock', arguments: { product: 'kettle' } },
      { name: 'get_stock', arguments: { product: 'toaster' } },
    ])
  }
  const results = toolResults(ctx.messages).map((m) => `${m.tool_call_id}: ${m.content}`)
  return answer(ctx.protocol, `Stock: ${results.join('; ')}`)
}
