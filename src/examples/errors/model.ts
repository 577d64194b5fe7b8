import { answer, callTools, type CallRequest, type ModelContext, type ModelResult, type ToolMessage } from 'toolstep'

// A model that makes three classic mistakes, one per step, and then reports what came back.
// Each error is written back to it as a tool message, so the loop keeps going.

const MISTAKES: (CallRequest & { text: string })[] = [
  // 1. A tool that does not exist (a typo of get_weather).
  { text: 'Let me check the weather in Oslo.', name: 'get_wether', arguments: { city: 'Oslo' } },
  // 2. Arguments that fail the tool's schema: `city` must be a string.
  { text: 'Trying again with the right tool.', name: 'get_weather', arguments: { city: 42 } },
  // 3. A valid call to a tool that throws.
  { text: 'Now the order.', name: 'lookup_order', arguments: { orderId: 'A999' } },
]

export default function model(ctx: ModelContext): ModelResult {
  const results = ctx.messages.filter((message): message is ToolMessage => message.role === 'tool')
  const next = MISTAKES[results.length]
  if (next) return callTools(ctx.protocol, [next], next.text)

  const report = results.map((result, index) => `${index + 1}. ${result.name}: ${result.content}`).join('\n')
  return answer(ctx.protocol, `Every call failed, and each error came back to me:\n${report}`)
}
