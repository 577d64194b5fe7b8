import { answer, callTools, lastToolResult, type ModelContext, type ModelResult } from 'toolstep'

// First output: a <tool_call> whose JSON is broken (a value is missing after "days":).
// After the correction comes back, it sends a well-formed call; then it answers.

export default function model(ctx: ModelContext): ModelResult {
  const assistantTurns = ctx.messages.filter((message) => message.role === 'assistant').length
  const result = lastToolResult(ctx.messages)
  if (result) return answer(ctx.protocol, `Second try worked: ${result.content}`)
  if (assistantTurns === 0) {
    // Arguments as a string are written to the wire verbatim, broken JSON included.
    return callTools(ctx.protocol, [{ name: 'get_weather', arguments: '{"city": "Paris", "days": }' }], 'Let me look that up.')
  }
  return callTools(ctx.protocol, [{ name: 'get_weather', arguments: { city: 'Paris', days: 2 } }], 'Sorry, here is the call again with valid JSON.')
}
