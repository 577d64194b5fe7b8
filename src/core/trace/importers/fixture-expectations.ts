/**
 * What each dialect fixture in `../__fixtures__/` must import to (see its README). Test data
 * shared by the importer and export tests; not exported from the module's index.
 */
import type { Message } from '../../messages'
import type { LogFormat } from './types'

export const QUESTION = "What's the weather in Paris and Tokyo?"
export const ANSWER = 'Paris is 18°C and cloudy; Tokyo is 24°C and sunny.'

/** The conversation every fixture records, with the dialect's ids and details. */
export function weather(options: { ids?: [string, string]; system?: boolean; preamble?: string | null; raw?: [string, string] | null } = {}): Message[] {
  const [paris, tokyo] = options.ids ?? ['call_Pa1', 'call_To2']
  const raw = options.raw === undefined ? ['{"city":"Paris"}', '{"city":"Tokyo"}'] : options.raw
  const messages: Message[] = options.system === false ? [] : [{ role: 'system', content: 'You are a travel assistant.' }]
  messages.push(
    { role: 'user', content: QUESTION },
    {
      role: 'assistant',
      content: options.preamble ?? null,
      tool_calls: [
        { id: paris, name: 'get_weather', arguments: { city: 'Paris' }, ...(raw ? { rawArguments: raw[0] } : {}) },
        { id: tokyo, name: 'get_weather', arguments: { city: 'Tokyo' }, ...(raw ? { rawArguments: raw[1] } : {}) },
      ],
    },
    { role: 'tool', tool_call_id: paris, name: 'get_weather', content: '18°C, cloudy' },
    { role: 'tool', tool_call_id: tokyo, name: 'get_weather', content: '24°C, sunny' },
    { role: 'assistant', content: ANSWER },
  )
  return messages
}

export const WEATHER_TOOL = { name: 'get_weather', description: 'Current weather for a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }

/** Each fixture: its file, the detected format, and the canonical conversation it holds. */
export const FIXTURES: { file: string; format: LogFormat; messages: Message[]; finishReasons: Record<number, string>; tools: boolean }[] = [
  { file: 'openai-pair.json', format: 'openai-messages', messages: weather(), finishReasons: { 5: 'stop' }, tools: true },
  { file: 'openai-responses.json', format: 'openai-responses', messages: weather(), finishReasons: { 5: 'completed' }, tools: true },
  { file: 'anthropic-pair.json', format: 'anthropic-messages', messages: weather({ ids: ['toolu_01Pa', 'toolu_02To'], preamble: "I'll check both cities.", raw: null }), finishReasons: { 5: 'end_turn' }, tools: true },
  { file: 'otel-genai.json', format: 'otel-genai', messages: weather({ raw: null }), finishReasons: { 2: 'tool_call', 5: 'stop' }, tools: true },
  { file: 'openinference.json', format: 'openinference', messages: weather({ raw: ['{"city": "Paris"}', '{"city": "Tokyo"}'] }), finishReasons: {}, tools: true },
  { file: 'langfuse-trace.json', format: 'langfuse', messages: weather(), finishReasons: { 2: 'tool_calls' }, tools: false },
  { file: 'vercel-ai.json', format: 'vercel-ai', messages: weather({ raw: null }), finishReasons: { 2: 'tool-calls', 5: 'stop' }, tools: false },
]

