import { answer, callTools, type CallRequest, type ModelContext, type ModelResult, type ToolMessage } from 'toolstep'

// Four calls, one per turn: a method that works, one that throws, a name that is no method
// ("constructor"), then a write; then the answer lists what each call got.
const CALLS: CallRequest[] = [
  { name: 'notes.read', arguments: { title: 'shopping' } },
  { name: 'notes.read', arguments: { title: 'holidays' } },
  { name: 'notes.constructor', arguments: {} },
  { name: 'notes.write', arguments: { title: 'holidays', text: 'Lisbon in May' } },
]

export default function model(ctx: ModelContext): ModelResult {
  const results = ctx.messages.filter((m): m is ToolMessage => m.role === 'tool')
  const next = CALLS[results.length]
  if (next) return callTools(ctx.protocol, [next])
  return answer(ctx.protocol, results.map((r, i) => `${CALLS[i]?.name}: ${r.isError ? 'error' : 'ok'} — ${r.content}`).join('\n'))
}
