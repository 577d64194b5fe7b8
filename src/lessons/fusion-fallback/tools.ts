import { tool, z } from 'toolstep'

export const get_weather = tool({
  description: 'Get the current weather for a city.',
  inputSchema: z.object({ city: z.string().min(1) }),
  execute: ({ city }) => ({ city, temperature: 18, conditions: 'sunny' }),
})

export const add = tool({
  description: 'Add two numbers.',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
})

export const get_time = tool({
  description: 'The current time in an IANA time zone.',
  inputSchema: z.object({ timezone: z.string() }),
  execute: ({ timezone }) => ({ timezone, time: '14:05' }),
})
