import { answer, callTools, lastToolResult, type ModelContext, type ModelResult } from 'toolstep'

// Asks for the weather once, then answers from whatever came back.

export default function model(ctx: ModelContext): ModelResult {
  const result = lastToolResult(ctx.messages)
  if (!result) return callTools(ctx.protocol, [{ name: 'get_weather', arguments: { city: 'Paris' } }])
  if (result.isError) return answer(ctx.protocol, `The weather service failed: ${result.content}`)
  const weather = JSON.parse(result.content) as { city: string; temperatureC: number; conditions: string }
  return answer(ctx.protocol, `In ${weather.city} it is ${weather.temperatureC} °C and ${weather.conditions}.`)
}
