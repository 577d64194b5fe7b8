import { answer, callTools, toolResults, type ModelContext, type ModelResult, type ToolMessage } from 'toolstep'

const FLIGHTS = { name: 'search_flights', arguments: { from: 'CDG', to: 'LIS', date: '2026-06-01' } }
const HOTELS = { name: 'search_hotels', arguments: { city: 'Lisbon', date: '2026-06-01' } }

// Asks for flights and hotels together; retries the flights when they failed or timed out.
export default function model(ctx: ModelContext): ModelResult {
  const all = ctx.messages.filter((message): message is ToolMessage => message.role === 'tool')
  if (all.length === 0) return callTools(ctx.protocol, [FLIGHTS, HOTELS], 'Searching flights and hotels.')
  const latest = toolResults(ctx.messages)
  const failedFlights = latest.find((result) => result.name === 'search_flights' && result.isError)
  if (failedFlights) return callTools(ctx.protocol, [FLIGHTS], `The flight search failed (${failedFlights.content}). Trying again.`)
  const flights = all.filter((result) => result.name === 'search_flights' && !result.isError).at(-1)
  const hotels = all.find((result) => result.name === 'search_hotels' && !result.isError)
  return answer(ctx.protocol, `Flights: ${flights?.content ?? 'none'}\nHotels: ${hotels?.content ?? 'none'}`)
}
