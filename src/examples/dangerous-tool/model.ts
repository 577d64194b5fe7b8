import { answer, callTools, lastToolResult, type ModelContext, type ModelResult, type ToolMessage } from 'toolstep'

// Lists the files, asks to delete the draft, then reports what happened to that request.
export default function model(ctx: ModelContext): ModelResult {
  const results = ctx.messages.filter((message): message is ToolMessage => message.role === 'tool')
  if (results.length === 0) return callTools(ctx.protocol, [{ name: 'list_files', arguments: {} }], 'Let me see what is there.')
  if (results.length === 1) {
    return callTools(ctx.protocol, [{ name: 'delete_file', arguments: { path: 'notes/old-draft.md' } }], 'The old draft can go.')
  }
  const outcome = lastToolResult(ctx.messages)?.content ?? ''
  return answer(ctx.protocol, /declined|denied/i.test(outcome) ? `You declined the deletion, so nothing was removed. (${outcome})` : `Done: ${outcome}`)
}
