import { answer, callTools, type CallRequest, type ModelContext, type ModelResult, type ToolMessage } from 'toolstep'

// Calls both hanging tools, then a normal one to show the fresh sandbox works, then answers.

const PLAN: CallRequest[] = [
  { name: 'spin', arguments: {} },
  { name: 'wait_forever', arguments: {} },
  { name: 'get_weather', arguments: { city: 'Lisbon' } },
]

export default function model(ctx: ModelContext): ModelResult {
  const results = ctx.messages.filter((message): message is ToolMessage => message.role === 'tool')
  const next = PLAN[results.length]
  if (next) return callTools(ctx.protocol, [next], `Calling ${next.name}.`)
  return answer(ctx.protocol, results.map((result) => `${result.name}: ${result.content}`).join('\n'))
}
