import { tool, z } from 'toolstep'

export const lookup_capital = tool({
  description: 'Look up the capital city of a country.',
  inputSchema: z.object({ country: z.string().min(1) }),
  execute: ({ country }) => ({ France: 'Paris', Japan: 'Tokyo', Kenya: 'Nairobi' } as Record<string, string>)[country] ?? 'unknown',
})
