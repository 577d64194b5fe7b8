import { lastToolResult, type ModelContext } from 'toolstep'

// The same model with the city read as the capitalised word after "in": every case passes.
export default function model(ctx: ModelContext): string {
  const question = ctx.messages.find((m) => m.role === 'user')?.content ?? ''
  if (ctx.step > 0) {
    const result = lastToolResult(ctx.messages)?.content ?? ''
    return /^\d+$/.test(result) ? `The sum is ${result}.` : `Here is the weather: ${result}`
  }
  const sum = /(\d+)\s*\+\s*(\d+)/.exec(question)
  if (sum) return JSON.stringify({ tool: 'add', arguments: { a: Number(sum[1]), b: Number(sum[2]) } })
  if (/weather|rain|sunny|temperature/i.test(question)) {
    const city = /\bin ([A-Z]\w*)/.exec(question)?.[1] ?? ''
    return JSON.stringify({ tool: 'get_weather', arguments: { city } })
  }
  return 'Hello! Ask me about the weather or a sum.'
}
