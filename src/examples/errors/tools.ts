import { tool, z } from 'toolstep'

// Tools can also be exported as one default object; each key is a tool's name.

const ORDERS: Record<string, { item: string; status: string }> = {
  A100: { item: 'Mechanical keyboard', status: 'shipped' },
  A101: { item: 'USB-C cable', status: 'processing' },
}

export default {
  get_weather: tool({
    description: 'Get the current weather for a city.',
    inputSchema: z.object({ city: z.string().min(1).describe('City name, e.g. "Oslo"') }),
    execute: ({ city }) => ({ city, temperatureC: 4, conditions: 'snow' }),
  }),

  lookup_order: tool({
    description: 'Look up an order by its id (A followed by three digits).',
    inputSchema: z.object({ orderId: z.string().regex(/^A\d{3}$/, 'must look like A123') }),
    execute: ({ orderId }) => {
      const order = ORDERS[orderId]
      // Throwing is how a tool reports failure: the message is written back to the model.
      if (!order) throw new Error(`Order ${orderId} does not exist.`)
      return { orderId, ...order }
    },
  }),
}
