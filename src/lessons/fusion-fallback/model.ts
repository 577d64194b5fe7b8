import type { ModelContext } from 'toolstep'

// The fusion parser's three stages, one per turn. The workspace parses with `json` first and
// falls back to `bracket` (a regex over [TOOL: …] [ARGS: …] markers); only when both find no
// call is the output an error (a half-written call) or the answer (plain text).
export default function model(ctx: ModelContext): string {
  const results = ctx.messages.filter((m) => m.role === 'tool').length
  const last = ctx.messages[ctx.messages.length - 1]
  switch (results) {
    case 0:
      // Stage 1: a JSON object, the main format.
      return '{"tool": "get_weather", "arguments": {"city": "Paris"}}'
    case 1:
      // Stage 2: no JSON object at all, but the regex recognises the bracket markers.
      return 'Now the sum. [TOOL: add] [ARGS: {"a": 18, "b": 4}]'
    case 2:
      // Stage 3: a call whose value is not quoted (no safe repair guesses where a bare word ends).
      // JSON reports the error, the regex finds nothing, so the loop writes the error back;
      // after the correction the model sends the call again, well-formed.
      return last?.role === 'tool' ? '{"tool": "get_time", "arguments": {"timezone": Europe/Paris}}' : '{"tool": "get_time", "arguments": {"timezone": "Europe/Paris"}}'
    default:
      return 'In Paris it is sunny and 18 °C, 18 + 4 is 22, and the time is 14:05.'
  }
}
