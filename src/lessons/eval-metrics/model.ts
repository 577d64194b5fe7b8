import { lastToolResult, type ModelContext } from 'toolstep'

// A keyword-routing mock model, to be measured over a few cases (the Evals tab runs them).
// It has a bug on purpose: the city is the question's last word, which is right for "What is
// the weather in Paris?" and wrong for "Is it raining in Lyon today?" (in Chinese, its first two
// characters: right for 巴黎的天气怎么样？, wrong for 今天里昂在下雨吗？).
const CITY_NAMES: Record<string, string> = { 巴黎: 'Paris', 里昂: 'Lyon' }

export default function model(ctx: ModelContext): string {
  const question = ctx.messages.find((m) => m.role === 'user')?.content ?? ''
  const chinese = /\p{Script=Han}/u.test(question)
  if (ctx.step > 0) {
    const result = lastToolResult(ctx.messages)?.content ?? ''
    if (chinese) return /^\d+$/.test(result) ? `和是 ${result}。` : `天气如下：${result}`
    return /^\d+$/.test(result) ? `The sum is ${result}.` : `Here is the weather: ${result}`
  }
  const sum = /(\d+)\s*\+\s*(\d+)/.exec(question)
  if (sum) return JSON.stringify({ tool: 'add', arguments: { a: Number(sum[1]), b: Number(sum[2]) } })
  if (/weather|rain|sunny|temperature|天气|天氣|雨|晴|气温|氣溫/i.test(question)) {
    const word = chinese ? question.slice(0, 2) : (/(\w+)\W*$/.exec(question)?.[1] ?? '')
    return JSON.stringify({ tool: 'get_weather', arguments: { city: CITY_NAMES[word] ?? word } })
  }
  return chinese ? '你好！可以问我天气或者算一个加法。' : 'Hello! Ask me about the weather or a sum.'
}
