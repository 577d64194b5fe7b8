import { tool, z } from 'toolstep'

// Models drift between formats: native tool calls on one turn, a JSON block the next, Hermes
// tags after that. A fallback chain (openai → json → xml-tag) tries each parser in turn, and the
// timeline says which one matched.

export const get_weather = tool({
  description: 'Get the current weather for a city.',
  inputSchema: z.object({ city: z.string().min(1) }),
  execute: ({ city }) => ({ city, temperatureC: 23, conditions: 'sunny' }),
})

export const get_time = tool({
  description: 'Get the current time in an IANA time zone.',
  inputSchema: z.object({ timezone: z.string() }),
  execute: ({ timezone }) => ({ timezone, time: '09:30' }),
})

export const convert_currency = tool({
  description: 'Convert an amount between currencies (fixed demo rates).',
  inputSchema: z.object({ amount: z.number(), from: z.string().length(3), to: z.string().length(3) }),
  execute: ({ amount, from, to }) => {
    const perEuro: Record<string, number> = { EUR: 1, USD: 1.08, JPY: 162, GBP: 0.85 }
    const rateFrom = perEuro[from.toUpperCase()]
    const rateTo = perEuro[to.toUpperCase()]
    if (rateFrom === undefined || rateTo === undefined) throw new Error(`No rate for ${from} → ${to}; known: ${Object.keys(perEuro).join(', ')}`)
    return { amount, from, to, result: Math.round((amount / rateFrom) * rateTo * 100) / 100 }
  },
})
