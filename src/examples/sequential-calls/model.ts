import { answer, callTools, type ModelContext, type ModelResult, type ToolMessage } from 'toolstep'

// Issues the three booking steps in one output, then reports the order they ran in.
export default function model(ctx: ModelContext): ModelResult {
  const results = ctx.messages.filter((message): message is ToolMessage => message.role === 'tool')
  if (results.length === 0) {
    return callTools(ctx.protocol, [
      { name: 'reserve_seat', arguments: { flight: 'TP 441' } },
      { name: 'pay', arguments: { amountEur: 129 } },
      { name: 'send_confirmation', arguments: { email: 'ada@example.com' } },
    ])
  }
  const steps = results.map((result) => JSON.parse(result.content) as { step: string; concurrent: number })
  const overlapping = steps.some((step) => step.concurrent > 1)
  return answer(ctx.protocol, `Booked: ${steps.map((step) => step.step).join(' → ')}. ${overlapping ? 'Some steps overlapped.' : 'Each step ran alone, in order.'}`)
}
