import { answer, callTools, type CallRequest, type ModelContext, type ModelResult, type ToolMessage } from 'toolstep'

const PLAN: CallRequest[] = [
  { name: 'weather.current', arguments: { city: 'Paris' } },
  { name: 'calendar.list_events', arguments: { date: '2026-05-04' } },
]

// Uses whatever it is offered: the current weather first, then today's events.
export default function model(ctx: ModelContext): ModelResult {
  const offered = ctx.tools.map((tool) => tool.name)
  const results = ctx.messages.filter((message): message is ToolMessage => message.role === 'tool')
  const plan = PLAN.filter((call) => offered.includes(call.name))
  const next = plan[results.length]
  if (next) return callTools(ctx.protocol, [next], `I was offered ${offered.length} tools: ${offered.join(', ')}.`)
  return answer(
    ctx.protocol,
    `With ${offered.length} of the 8 tools offered (${offered.join(', ')}):\n${results.map((result) => `${result.name}: ${result.content}`).join('\n')}`,
  )
}
