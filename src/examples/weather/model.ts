import { callTools, lastUserMessage, nextCallId, type ModelContext, type ModelResult, type ToolMessage } from 'toolstep'

// A scripted stand-in for an LLM. For each thing the question asks about it calls one tool, one per
// step; once every result is back it answers from them. Edit it to see how the loop reacts.

interface PlannedCall {
  name: string
  arguments: Record<string, string>
}

/** Cities a question in Chinese names, as the tool knows them (a model would translate them too). */
const CITY_NAMES: Record<string, string> = { 巴黎: 'Paris', 奥斯陆: 'Oslo', 奧斯陸: 'Oslo', 里斯本: 'Lisbon', 东京: 'Tokyo', 東京: 'Tokyo', 马德里: 'Madrid', 馬德里: 'Madrid', 里昂: 'Lyon' }

/** The city a question asks the weather of: "weather in Paris", or 巴黎的天气 in Chinese. */
function cityOf(question: string): string | undefined {
  const english = /weather\s+(?:in|for|at)\s+([\p{L} .'-]+?)(?=\s*(?:[?,.!;]|\band\b|$))/iu.exec(question)?.[1]
  if (english) return english.trim()
  const chinese = /([\p{Script=Han}]+?)的?天[气氣]/u.exec(question)?.[1]
  return chinese ? (CITY_NAMES[chinese] ?? chinese) : undefined
}

/** What the "model" decides to call for a question (English or Chinese): weather, arithmetic and/or time. */
function plan(question: string): PlannedCall[] {
  const calls: PlannedCall[] = []
  const city = cityOf(question)
  if (city) calls.push({ name: 'get_weather', arguments: { city } })
  const math = question.match(/[-(]*\d[\d\s.+\-*/%^()]*/g)?.find((part) => /\d\s*(?:[-+*/%^]|\*\*)\s*[-(\d.]/.test(part))
  if (math) calls.push({ name: 'calculate', arguments: { expression: math.trim() } })
  if (/\btime\b|时间|時間|几点|幾點/i.test(question)) {
    const zone = /\b([A-Z][A-Za-z]+\/[A-Za-z_]+)\b/.exec(question)
    calls.push({ name: 'get_time', arguments: zone?.[1] ? { timezone: zone[1] } : {} })
  }
  return calls
}

/** Writes one tool call in the wire format the chosen protocol expects. */
function callTool(protocol: string, call: PlannedCall, text: string): ModelResult {
  const args = JSON.stringify(call.arguments)
  switch (protocol) {
    case 'openai':
      // Native tool calling: a message object, and `arguments` is a JSON *string*.
      return {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: nextCallId(), type: 'function', function: { name: call.name, arguments: args } }],
      }
    case 'xml-tag':
      return `${text}\n<tool_call>{"name": ${JSON.stringify(call.name)}, "arguments": ${args}}</tool_call>`
    case 'json':
      // A JSON object in prose, fenced the way chat models usually write it.
      return `${text}\n\n\`\`\`json\n{"tool": ${JSON.stringify(call.name)}, "arguments": ${args}}\n\`\`\``
    default:
      // Any other format: Toolstep writes the call in that format's own markup.
      return callTools(protocol, [{ name: call.name, arguments: call.arguments }], text)
  }
}

/** Turns one tool result into a sentence. Tool results arrive as text: JSON unless the tool returned a string. */
function sentence(result: ToolMessage): string {
  if (result.isError) return `${result.name} failed: ${result.content}`
  let data: Record<string, unknown>
  try {
    data = JSON.parse(result.content) as Record<string, unknown>
  } catch {
    return `${result.name} said: ${result.content}`
  }
  switch (result.name) {
    case 'get_weather': {
      const unit = data.unit === 'fahrenheit' ? '°F' : '°C'
      return `In ${String(data.city)} it is ${String(data.temperature)} ${unit} and ${String(data.conditions)}.`
    }
    case 'calculate':
      return `${String(data.expression)} = ${String(data.result)}.`
    case 'get_time':
      return `In ${String(data.timezone)} it is ${String(data.local)}.`
    default:
      return `${result.name} returned ${result.content}.`
  }
}

export default function model(ctx: ModelContext): ModelResult {
  const question = lastUserMessage(ctx.messages)
  const calls = plan(question)
  const results = ctx.messages.filter((message): message is ToolMessage => message.role === 'tool')
  const next = calls[results.length]
  if (next) return callTool(ctx.protocol, next, `I'll use ${next.name} for that.`)

  const text =
    results.length > 0
      ? results.map(sentence).join(' ')
      : 'I can look up the weather in a city, do arithmetic, or tell the time. Try: "What is the weather in Paris, and what is (12 + 30) * 2?"'
  return ctx.protocol === 'openai' ? { role: 'assistant', content: text } : text
}
