import { lastUserMessage, type ModelContext, type ToolMessage } from 'toolstep'

// Every output is one JSON object: {"tool_name", "parameters", "reasoning"}. The reasoning is for
// people reading the log; the loop reads only the name and the parameters.
const say = (tool_name: string, parameters: Record<string, unknown>, reasoning: string) => JSON.stringify({ tool_name, parameters, reasoning })

// Cities a question in Chinese names, as the tools know them.
const CITY_NAMES: Record<string, string> = { 奥斯陆: 'Oslo', 奧斯陸: 'Oslo', 巴黎: 'Paris', 里昂: 'Lyon' }
const cityOf = (question: string) => /in ([A-Z]\w*)/.exec(question)?.[1] ?? Object.entries(CITY_NAMES).find(([name]) => question.includes(name))?.[1] ?? 'Paris'

export default function model(ctx: ModelContext): string {
  const question = lastUserMessage(ctx.messages)
  const results = ctx.messages.filter((m): m is ToolMessage => m.role === 'tool')
  const offered = ctx.tools.map((t) => t.name)
  if (offered.includes('choose_category')) {
    // First try: a category that is not in the enum; validation answers with the allowed values.
    if (results.length === 0) return say('choose_category', { category: 'forecast' }, 'The user asks about rain, so a forecast.')
    const category = /rain|weather|sunny|雨|天气|天氣|晴/i.test(question) ? 'weather' : /\d\s*\+\s*\d/.test(question) ? 'math' : 'other'
    return say('choose_category', { category }, `The enum allows weather, math or other; this is ${category}.`)
  }
  const done = results[results.length - 1]
  if (done && done.name !== 'choose_category') return `Answer from ${done.name}: ${done.content}`
  if (offered.includes('weather.current')) return say('weather.current', { city: cityOf(question) }, 'Stage 2 offers the weather tools.')
  if (offered.includes('math.add')) return say('math.add', { a: 2, b: 2 }, 'Stage 2 offers the math tools.')
  return say('web_search', { query: question }, 'No category fits: the fallback.')
}
