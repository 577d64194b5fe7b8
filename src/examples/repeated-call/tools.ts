import { tool, z } from 'toolstep'

// A model that does not understand a result may call the same tool with the same arguments
// again and again until max steps. Repeated-call detection notices N identical calls in a row
// and stops the run with repeated_call (or warns and lets it go on).

export const search_docs = tool({
  description: 'Search the documentation.',
  inputSchema: z.object({ query: z.string().min(1) }),
  execute: ({ query }) => ({ query, hits: [] as string[], note: 'No results.' }),
})
