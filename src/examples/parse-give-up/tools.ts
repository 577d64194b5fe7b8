import { tool, z } from 'toolstep'

// A model that never manages a well-formed call. After Max parse retries corrections, the loop
// must end somehow: stop with an error (the default), or, with On parse failure set to "take the
// text as the final answer", hand the user what the model wrote, marked as malformed.

export const search_docs = tool({
  description: 'Search the documentation.',
  inputSchema: z.object({ query: z.string().min(1) }),
  execute: ({ query }) => ({ query, hits: ['Tool calling guide', 'Parsing model output'] }),
})
