import { answer, callTools, type ModelContext, type ModelResult, type ToolMessage } from 'toolstep'

// One spelling per step; each resolution (or the error for "constructor") is on the timeline.
const SPELLINGS = ['getWeather', 'get-weather', 'weather_lookup', 'get_wether', 'constructor']
const CITIES = ['Paris', 'Oslo', 'Rome', 'Lima', 'Kyoto']

export default function model(ctx: ModelContext): ModelResult {
  const results = ctx.messages.filter((message): message is ToolMessage => message.role === 'tool')
  const name = SPELLINGS[results.length]
  if (name !== undefined) {
    return callTools(ctx.protocol, [{ name, arguments: { city: CITIES[results.length] ?? 'Paris' } }], `Calling ${name}.`)
  }
  const lines = results.map((result, index) => `${SPELLINGS[index]} → ${result.isError ? `error: ${result.content}` : 'ran get_weather'}`)
  return answer(ctx.protocol, lines.join('\n'))
}
