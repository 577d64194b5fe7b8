import { tool, z } from 'toolstep'

// The model rarely spells a tool name exactly. Resolution order: exact name, declared aliases,
// case- and separator-insensitive (getWeather, get-weather), then — only when switched on — a
// fuzzy match within edit distance 2. Names like "constructor" must never resolve to anything.

export const get_weather = tool({
  description: 'Get the current weather for a city.',
  aliases: ['weather_lookup'],
  inputSchema: z.object({ city: z.string().min(1).describe('City name') }),
  execute: ({ city }) => ({ city, temperatureC: 17, conditions: 'windy' }),
})

export const get_time = tool({
  description: 'Get the current time in an IANA time zone.',
  inputSchema: z.object({ timezone: z.string().default('UTC') }),
  execute: ({ timezone }) => ({ timezone, time: '12:00' }),
})
