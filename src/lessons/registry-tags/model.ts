import { lastToolResult, type ModelContext } from 'toolstep'

// A mock model that speaks the tag format by hand: one <tool>{json}</tool> per call.
export default function model(ctx: ModelContext): string {
  if (ctx.step === 0) {
    return 'I will look it up.\n<tool>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool>'
  }
  if (ctx.step === 1) {
    return '<tool>{"name": "add", "arguments": {"a": 18, "b": 4}}</tool>'
  }
  return `It is sunny in Paris, 18 °C; four degrees warmer would be ${lastToolResult(ctx.messages)?.content ?? '?'} °C.`
}
