import { tool, z } from 'toolstep'

// Two tools that never finish. The sandbox cannot ask them to stop, so when their timeout
// (timeoutMs, here 1 s; 5 s by default) runs out it kills the worker, starts a fresh one with
// the same code, and writes a timeout error back to the model.

export const spin = tool({
  description: 'Busy-loops forever (blocks the worker thread).',
  inputSchema: z.object({}),
  timeoutMs: 1000,
  execute: () => {
    for (;;) {
      // never yields
    }
  },
})

export const wait_forever = tool({
  description: 'Awaits a promise that never settles.',
  inputSchema: z.object({}),
  timeoutMs: 1000,
  execute: async () => {
    await new Promise<never>(() => {})
  },
})

export const get_weather = tool({
  description: 'Get the current weather for a city.',
  inputSchema: z.object({ city: z.string().min(1) }),
  execute: ({ city }) => ({ city, temperatureC: 21, conditions: 'sunny' }),
})
