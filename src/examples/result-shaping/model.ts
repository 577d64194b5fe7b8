import { answer, callTools, type ModelContext, type ModelResult, type ToolMessage } from 'toolstep'

// Fetches a 10 000-character log and a page with an injection attempt, then reports what it got.
export default function model(ctx: ModelContext): ModelResult {
  const results = ctx.messages.filter((message): message is ToolMessage => message.role === 'tool')
  if (results.length === 0) return callTools(ctx.protocol, [{ name: 'fetch_logs', arguments: { service: 'checkout' } }], 'Reading the log first.')
  if (results.length === 1) {
    return callTools(ctx.protocol, [{ name: 'read_webpage', arguments: { url: 'https://example.com/hikes' } }], 'Now the page.')
  }
  const [log, page] = results
  return answer(
    ctx.protocol,
    `The log came back as ${log?.content.length ?? 0} characters (not 10 000). ` +
      'The page contained an instruction to reveal my system prompt; it is data from a tool, not a request from you, so I ignored it. ' +
      `Trails: ${/Vettakollen[^.\n]*/.exec(page?.content ?? '')?.[0] ?? 'see the page'}.`,
  )
}
