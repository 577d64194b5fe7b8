import { tool, z } from 'toolstep'

// Three calls that must not overlap: each step of a booking changes what the next one sees.
// With execution "sequential" the loop runs them one after another, in call order. Each tool
// reports how many calls were in flight when it ran: always 1 here (switch Loop behaviours →
// Execution to parallel and run again to see 3).

let inFlight = 0
const booking: string[] = []

async function step(name: string, detail: string) {
  inFlight += 1
  const concurrent = inFlight
  // Give other calls the chance to start, as a real network call would.
  await new Promise((resolve) => setTimeout(resolve, 20))
  booking.push(name)
  inFlight -= 1
  return { step: name, detail, concurrent, doneSoFar: [...booking] }
}

export const reserve_seat = tool({
  description: 'Hold a seat on a flight for 10 minutes.',
  inputSchema: z.object({ flight: z.string().min(1) }),
  execute: ({ flight }) => step('reserve_seat', `seat 14C held on ${flight}`),
})

export const pay = tool({
  description: 'Pay for the held seat.',
  inputSchema: z.object({ amountEur: z.number().positive() }),
  execute: ({ amountEur }) => step('pay', `${amountEur} EUR charged`),
})

export const send_confirmation = tool({
  description: 'Email the booking confirmation.',
  inputSchema: z.object({ email: z.string().min(3) }),
  execute: ({ email }) => step('send_confirmation', `sent to ${email}`),
})
