import { answer, callTools, lastToolResult, type ModelContext, type ModelResult } from 'toolstep'

// First call: an argument the tool does not have ("units", a typo of "unit", plus "lang").
// Once the rejection comes back it calls again with the declared argument only.
export default function model(ctx: ModelContext): ModelResult {
  const result = lastToolResult(ctx.messages)
  if (!result) return callTools(ctx.protocol, [{ name: 'get_weather', arguments: { city: 'Lisbon', units: 'celsius', lang: 'pt' } }])
  if (result.isError) return callTools(ctx.protocol, [{ name: 'get_weather', arguments: { city: 'Lisbon', unit: 'celsius' } }], 'Fixing the arguments.')
  return answer(ctx.protocol, `Lisbon: ${result.content}`)
}
