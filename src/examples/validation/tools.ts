import { tool, z } from 'toolstep'

// Models get argument types and names slightly wrong all the time: "3" for 3, city_name for city,
// an extra field nobody asked for. The loop repairs what is safe to repair (and says so), and
// tells the model precisely what it cannot repair, so the next call can be right.

export const get_forecast = tool({
  description: 'Daily weather forecast for a city, up to 14 days ahead.',
  inputSchema: z.object({
    city: z.string().min(1).describe('City name, e.g. "Paris"'),
    days: z.number().int().min(1).max(14).describe('How many days, 1 to 14'),
  }),
  // A name models often use instead of `city`: renamed before validation, and the rename is shown.
  argumentAliases: { city_name: 'city' },
  execute: ({ city, days }) => ({
    city,
    days: Array.from({ length: days }, (_, index) => ({ day: index + 1, highC: 18 + ((index * 3) % 7), conditions: index % 2 ? 'cloudy' : 'sunny' })),
  }),
})
