import { tool, z } from 'toolstep'

// When a call cannot be parsed, silently treating the output as the final answer loses the
// user's request. The loop writes back a correction that names what was wrong and asks again,
// up to maxParseRetries times.

export const get_weather = tool({
  description: 'Get the current weather for a city.',
  inputSchema: z.object({
    city: z.string().min(1).describe('City name'),
    days: z.number().int().min(1).max(7).default(1).describe('Days of forecast'),
  }),
  execute: ({ city, days }) => ({ city, days, temperatureC: 14, conditions: 'light rain' }),
})
