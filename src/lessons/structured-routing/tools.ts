import { tool, z, type RouteContext } from 'toolstep'

// Two-stage routing: stage 1 offers one tool, choose_category, whose category is an enum; stage 2
// offers the tools of the category chosen. A category with no tools of its own falls back to
// web_search, so every request reaches some tool.

const CATEGORIES = ['weather', 'math', 'other'] as const

export const choose_category = tool({
  description: 'Stage 1: pick the category of tools this request needs.',
  inputSchema: z.object({ category: z.enum(CATEGORIES).describe('weather, math or other') }),
  execute: ({ category }) => ({ category }),
})

export const weather = {
  current: tool({ description: 'Current weather in a city.', inputSchema: z.object({ city: z.string() }), execute: ({ city }) => ({ city, conditions: 'light rain', temperature: 14 }) }),
}

export const math = {
  add: tool({ description: 'Add two numbers.', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b }),
}

export const web_search = tool({ description: 'Search the web (the fallback).', inputSchema: z.object({ query: z.string() }), execute: ({ query }) => ({ query, results: 3 }) })

/** The tools offered per chosen category; `other` has none of its own. */
const STAGE_TWO: Record<string, string[]> = { weather: ['weather'], math: ['math'] }

export function route({ messages }: RouteContext): string[] {
  const chosen = [...messages].reverse().find((m) => m.role === 'tool' && m.name === 'choose_category' && !m.isError)
  if (!chosen || chosen.role !== 'tool') return ['choose_category']
  const category = (JSON.parse(chosen.content) as { category: string }).category
  return STAGE_TWO[category] ?? ['web_search']
}
