import { tool, z } from 'toolstep'

// A flaky upstream: the first call on turn 1 is made to time out (see Loop behaviours → Fault
// injection). With "Retry once on timeout" on, the loop runs the call again and it succeeds.

export const get_weather = tool({
  description: 'Get the current weather for a city.',
  inputSchema: z.object({ city: z.string().min(1) }),
  execute: ({ city }) => ({ city, temperatureC: 21, conditions: 'sunny' }),
  // How long an attempt may take before it counts as timed out, ms.
  timeoutMs: 1000,
})
