import { tool, z } from 'toolstep'

// Instead of one JSON call per turn, the model writes a short program that calls the tools as
// async functions, combines their results and prints what it found. It runs in the sandbox with
// a timeout and nothing but the tools in scope; what it prints (capped) is written back, and each
// tool call it makes appears on the timeline.

export const weather = {
  current: tool({
    description: 'Current weather in a city.',
    inputSchema: z.object({ city: z.string().min(1) }),
    execute: ({ city }) => ({ city, temperatureC: city === 'Paris' ? 19 : 24 }),
  }),
}

export const convert_temperature = tool({
  description: 'Convert Celsius to Fahrenheit.',
  inputSchema: z.object({ celsius: z.number() }),
  execute: ({ celsius }) => ({ celsius, fahrenheit: Math.round(((celsius * 9) / 5 + 32) * 10) / 10 }),
})
