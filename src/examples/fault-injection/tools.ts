import { tool, z } from 'toolstep'

// Real tools fail, hang and slow down. Fault injection makes that happen on purpose (here: the
// flight search times out on the first turn, the hotel search is slow every time), so you can see
// the loop report the timeout to the model, carry on, and the model try again.

export const search_flights = tool({
  description: 'Search flights between two airports on a date.',
  inputSchema: z.object({ from: z.string().length(3), to: z.string().length(3), date: z.string() }),
  execute: ({ from, to, date }) => ({ date, flights: [`${from}→${to} 08:15`, `${from}→${to} 17:40`] }),
  // An injected timeout waits this long, as a hung call would.
  timeoutMs: 1500,
})

export const search_hotels = tool({
  description: 'Search hotels in a city for a night.',
  inputSchema: z.object({ city: z.string(), date: z.string() }),
  execute: ({ city, date }) => ({ city, date, hotels: ['Hotel Lumen', 'Casa Norte'] }),
})
