import { lastToolResult, type ModelContext } from 'toolstep'

// A model without native tool calls, prompted to answer with JSON. It chats around the object,
// so the parser takes the text from the first "{" to the matching last "}".
export default function model(ctx: ModelContext): string {
  if (ctx.step === 0) {
    return 'Sure! Here is the call you asked for: {"tool": "lookup_capital", "arguments": {"country": "Japan"}} Hope that helps.'
  }
  if (ctx.step === 1) {
    // No tool is needed now: the agreed marker for "no call".
    return `{"tool": "none"} The capital of Japan is ${lastToolResult(ctx.messages)?.content ?? '?'}.`
  }
  return 'Done.'
}
