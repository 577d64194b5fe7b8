import { tool, z, type RouteContext } from 'toolstep'

// Offering every tool at every step costs prompt space and invites wrong picks. A route hook
// chooses the tools per step — here two-stage: keywords pick categories (namespaces), and a
// category offers its tools. Namespaces keep names apart (weather.current vs calendar.current
// could not clash); declaring one name twice is an error at load.

const ok = (what: string) => (args: Record<string, unknown>) => ({ ...args, note: `${what} (demo data)` })

export const weather = {
  current: tool({ description: 'Current weather in a city.', inputSchema: z.object({ city: z.string() }), execute: ok('sunny, 21 °C') }),
  forecast: tool({ description: 'Forecast for the next days.', inputSchema: z.object({ city: z.string(), days: z.number().int().max(7) }), execute: ok('mild') }),
}

export const calendar = {
  list_events: tool({ description: 'Events on a date (YYYY-MM-DD).', inputSchema: z.object({ date: z.string() }), execute: ok('standup 09:30, lunch 12:00') }),
  create_event: tool({ description: 'Create an event.', inputSchema: z.object({ title: z.string(), date: z.string() }), execute: ok('created') }),
}

export const files = {
  read: tool({ description: 'Read a file.', inputSchema: z.object({ path: z.string() }), execute: ok('file text') }),
  search: tool({ description: 'Search files by content.', inputSchema: z.object({ query: z.string() }), execute: ok('2 matches') }),
}

export const calculate = tool({ description: 'Evaluate arithmetic.', inputSchema: z.object({ expression: z.string() }), execute: ok('42') })
export const web_search = tool({ description: 'Search the web.', inputSchema: z.object({ query: z.string() }), execute: ok('3 results') })

/** Category keywords → tools offered. A namespace name ("weather") offers every tool in it. */
const ROUTES: [RegExp, string[]][] = [
  // \b does not work between CJK characters: the Chinese keywords match anywhere.
  [/\b(weather|rain|sunny|forecast|temperature)\b|天气|天氣|下雨|气温|氣溫|预报|預報/i, ['weather']],
  [/\b(calendar|meeting|event|schedule|today)\b|日程|会议|會議|日历|日曆|今天/i, ['calendar']],
  [/\b(file|document|notes?)\b|文件|文档|文檔|笔记|筆記/i, ['files']],
  [/\d\s*[-+*/]\s*\d|\bcalculate\b/i, ['calculate']],
]

/** Picks the tools for this step from the latest user message; the web is the fallback. */
export function route({ messages }: RouteContext): string[] {
  const text = [...messages].reverse().find((message) => message.role === 'user')?.content ?? ''
  const picked = ROUTES.filter(([pattern]) => pattern.test(text)).flatMap(([, names]) => names)
  return picked.length > 0 ? picked : ['web_search']
}
