import { answer, callTools, type ModelContext, type ModelResult } from 'toolstep'

// A model that would keep reading forever. With "Last turn without tools" on, the loop asks it
// once more with no tools offered when max steps is reached, so the user still gets an answer.

export default function model(ctx: ModelContext): ModelResult {
  const pages = ctx.messages.filter((message) => message.role === 'tool').length
  if (ctx.tools.length === 0) {
    return answer(ctx.protocol, `I read ${pages} pages before the step limit. In short: a tool loop needs a stop condition, and an answer even when it hits one.`)
  }
  return callTools(ctx.protocol, [{ name: 'search', arguments: { query: 'tool calling', page: pages + 1 } }], 'Reading one more page…')
}
