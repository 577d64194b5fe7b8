import { answer, callTools, toolResults, type ModelContext, type ModelResult, type ToolMessage } from 'toolstep'

// Step 1: "days" as a string, the city_name alias and an unknown "units" argument — all repaired.
// Step 2: forgets "city" and asks for too many days — rejected, with the exact reasons.
// Step 3: reads the reasons and sends a correct call. Step 4: answers.

export default function model(ctx: ModelContext): ModelResult {
  const results = ctx.messages.filter((message): message is ToolMessage => message.role === 'tool')
  const last = toolResults(ctx.messages).at(-1)
  switch (results.length) {
    case 0:
      return callTools(ctx.protocol, [{ name: 'get_forecast', arguments: { city_name: 'Paris', days: '3', units: 'metric' } }], 'Checking the next three days in Paris.')
    case 1:
      return callTools(ctx.protocol, [{ name: 'get_forecast', arguments: { days: 20 } }], 'And the next twenty days, to plan ahead.')
    case 2:
      if (last?.isError) {
        // A real model would read the message; this one just fixes both problems it was told about.
        return callTools(ctx.protocol, [{ name: 'get_forecast', arguments: { city: 'Paris', days: 14 } }], `The tool said: ${last.content} Fixing the city and using 14 days.`)
      }
      return answer(ctx.protocol, 'Unexpectedly, the call without a city worked.')
    default:
      return answer(ctx.protocol, `Got a 3-day and a 14-day forecast for Paris after one corrected call (${results.filter((result) => result.isError).length} rejected).`)
  }
}
