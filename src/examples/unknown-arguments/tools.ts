import { tool, z } from 'toolstep'

// Models invent arguments. By default the loop drops an argument the schema does not declare
// (with a warning); with Loop behaviours → Unknown arguments set to "reject", the call is refused
// and the model is told which argument was unknown, so it can fix the call.

export const get_weather = tool({
  description: 'Get the current weather for a city.',
  inputSchema: z.object({
    city: z.string().min(1).describe('City name'),
    unit: z.enum(['celsius', 'fahrenheit']).default('celsius'),
  }),
  execute: ({ city, unit }) => ({ city, unit, temperature: unit === 'celsius' ? 21 : 70, conditions: 'clear' }),
})
