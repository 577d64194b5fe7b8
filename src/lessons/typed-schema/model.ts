import { answer, callTools, lastToolResult, type ModelContext, type ModelResult } from 'toolstep'

export default function model(ctx: ModelContext): ModelResult {
  if (ctx.step === 0) {
    // The schema the loop derived is in ctx.tools: this mock reads the enum from it.
    const spec = ctx.tools.find((t) => t.name === 'convert_temperature')
    const to = JSON.stringify(spec?.inputSchema ?? {}).includes('fahrenheit') ? 'fahrenheit' : 'celsius'
    return callTools(ctx.protocol, [{ name: 'convert_temperature', arguments: { value: 21, to } }])
  }
  return answer(ctx.protocol, `21 °C is ${lastToolResult(ctx.messages)?.content ?? '?'} °F.`)
}
