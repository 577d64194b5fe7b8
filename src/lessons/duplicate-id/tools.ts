import { tool, z } from 'toolstep'

export const get_stock = tool({
  description: 'Get the number of items in stock for a product.',
  inputSchema: z.object({ product: z.string().min(1) }),
  execute: ({ product }) => ({ product, inStock: product === 'kettle' ? 4 : 0 }),
})
