import { tool, z } from 'toolstep'

export const search = tool({
  description: 'Search the documentation. Returns one page of results.',
  inputSchema: z.object({
    query: z.string().min(1),
    page: z.number().int().min(1).default(1),
  }),
  execute: ({ query, page }) => ({
    query,
    page,
    results: [`${query}: result ${page * 2 - 1}`, `${query}: result ${page * 2}`],
    more: true,
  }),
})
