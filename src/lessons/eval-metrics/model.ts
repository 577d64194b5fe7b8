import { lastToolResult, type ModelContext } from 'toolstep'

// A keyword-routing mock model, to be measured over a few cases (the Evals tab runs them).
// It has a bug on purpose: the city is the question's last word, which is right for "What is
// the weather in Paris?" and wrong for "Is it raining in Lyon today?".
export default function model(ctx: ModelContext): string {
  const question = ctx.messages.find((m) => m.role === 'user')?.content ?? ''
  if (ctx.step > 0) {
    const result = lastToolResult(ctx.messages)?.content ?? ''
    return /^\d+$/.test(result) ? `The sum is ${result}.` : `Here is the weather: ${result}`
  }
  const sum = /(\d+)\s*\+\s*(\d+)/.exec(question)
  if (sum) return JSON.stringify({ tool: 'add', arguments: { a: Number(sum[1]), b: Number(sum[2]) } })
  if (/weather|rain|sunny|temperature/i.test(question)) {
    const city = /(\w+)\W*$/.exec(question)?.[1] ?? ''
    return JSON.stringify({ tool: 'get_weather', arguments: { city } })
  }
  return 'Hello! Ask me about the weather or a sum.'
}
