import { answer, callTools, lastUserMessage, type ModelContext, type ModelResult, type ToolMessage } from 'toolstep'

// Reads chapters 1–5, one per step, then answers from whatever is still in its window.
export default function model(ctx: ModelContext): ModelResult {
  if (ctx.step < 5) {
    return callTools(ctx.protocol, [{ name: 'read_chapter', arguments: { chapter: ctx.step + 1 } }], `Reading chapter ${ctx.step + 1}.`)
  }
  const visible = ctx.messages.filter((message): message is ToolMessage => message.role === 'tool')
  const chapters = visible.map((message) => /Chapter (\d+)/.exec(message.content)?.[1]).filter(Boolean)
  const question = lastUserMessage(ctx.messages)
  return answer(
    ctx.protocol,
    `I can see ${ctx.messages.length} messages: chapters ${chapters.join(', ') || 'none'}. ` +
      (question ? `You asked: "${question}".` : 'I can no longer see your question — it fell out of the context window.'),
  )
}
