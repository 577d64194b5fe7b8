import { describe, expect, it } from 'vitest'
import { createRuntime } from './runtime'

const header = "import { tool, z } from 'toolstep'\n"
const empty = "inputSchema: z.object({}), execute: () => 'ok'"

function load(source: string) {
  const runtime = createRuntime()
  return { runtime, result: runtime.load('tools.ts', header + source) }
}

const request = (step = 0) => ({ messages: [{ role: 'user' as const, content: 'weather in Paris' }], tools: [], step, protocol: 'json' })

describe('tools.ts: namespaces and explicit names', () => {
  it('declares dotted names for a plain object of tools, nested, in named and default exports', () => {
    const { result } = load(
      `export const weather = {
  current: tool({ description: 'now', ${empty} }),
  forecast: tool({ description: 'later', ${empty} }),
  marine: { tides: tool({ description: 'tides', ${empty} }) },
}
export const now = tool({ name: 'clock.now', description: 'time', ${empty} })
export const SETTINGS = { units: 'metric' }
export default { files: { read: tool({ description: 'read', ${empty} }) } }`,
    )
    expect(result.ok && result.tools.map((t) => t.name)).toEqual(['weather.current', 'weather.forecast', 'weather.marine.tides', 'clock.now', 'files.read'])
  })

  it('runs a namespaced tool by its full name', async () => {
    const { runtime } = load(`export const weather = { current: tool({ description: 'now', inputSchema: z.object({ city: z.string() }), execute: ({ city }) => 'sunny in ' + city }) }`)
    expect(await runtime.executeTool('weather.current', { city: 'Oslo' }, 'c1')).toEqual({ ok: true, result: 'sunny in Oslo' })
    expect(await runtime.executeTool('weather', {}, 'c1')).toMatchObject({ ok: false, error: { name: 'UnknownToolError' } })
  })

  it('rejects a name declared twice, naming both places with their lines', () => {
    const { result } = load(
      `export const weather = {
  current: tool({ description: 'now', ${empty} }),
}
export const now = tool({ name: 'weather.current', description: 'also now', ${empty} })`,
    )
    expect(result).toEqual({
      ok: false,
      error: {
        file: 'tools.ts',
        line: 5,
        column: expect.any(Number),
        message:
          'Tool "weather.current" is defined twice: by "current" in the export "weather" (line 3) and by tool({ name: "weather.current" }) at the named export "now" (line 5). Tool names must be unique; rename one of them.',
      },
    })
  })

  it('rejects a non-tool inside a namespace, and a badly formed name', () => {
    const mixed = load(`export const weather = { current: tool({ description: 'now', ${empty} }), UNITS: ['c', 'f'] }`).result
    expect(mixed).toMatchObject({ ok: false, error: { line: 2, message: expect.stringContaining('"weather.UNITS" is in a namespace of tools but is not a tool') } })
    const dotted = load(`export const t = tool({ name: 'weather..now', description: 'x', ${empty} })`).result
    expect(dotted).toMatchObject({ ok: false, error: { message: expect.stringContaining('a part on each side of every "."') } })
    const reserved = load(`export const t = tool({ name: 'route', description: 'x', ${empty} })`).result
    expect(reserved).toMatchObject({ ok: false, error: { message: expect.stringContaining('reserved for the route hook') } })
  })

  it('carries argumentAliases to the loaded tool and applies them when running it', async () => {
    const { runtime, result } = load(
      `export const get_weather = tool({
  description: 'w',
  aliases: ['weather'],
  argumentAliases: { city_name: 'city', location: 'city' },
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => city,
})`,
    )
    expect(result.ok && result.tools[0]).toMatchObject({ aliases: ['weather'], argumentAliases: { city_name: 'city', location: 'city' } })
    expect(await runtime.executeTool('weather', { city_name: 'Rome' }, 'c1')).toEqual({ ok: true, result: 'Rome' })
    // The real name wins when both are sent (the alias is then an unknown key, which z.object drops).
    expect(await runtime.executeTool('get_weather', { city: 'Oslo', location: 'Rome' }, 'c1')).toEqual({ ok: true, result: 'Oslo' })
  })

  it('rejects argumentAliases that point at an argument the tool does not have', () => {
    const { result } = load(`export const t = tool({ description: 'x', argumentAliases: { town: 'city' }, inputSchema: z.object({ place: z.string() }), execute: () => 1 })`)
    expect(result).toMatchObject({ ok: false, error: { line: 2, message: expect.stringContaining('maps "town" to "city", which is not an argument') } })
  })
})

describe('tools.ts: the route and summarize hooks', () => {
  const tools = `export const weather = {
  current: tool({ description: 'now', ${empty} }),
  forecast: tool({ description: 'later', ${empty} }),
}
export const calculate = tool({ description: 'math', aliases: ['calc'], ${empty} })
`

  it('are hooks, not tools, and are reported in the load result', () => {
    const { result } = load(`${tools}export function route() { return ['calculate'] }\nexport const summarize = (text: string) => text.slice(0, 3)`)
    expect(result).toMatchObject({ ok: true, hooks: { route: true, summarize: true } })
    expect(result.ok && result.tools.map((t) => t.name)).toEqual(['weather.current', 'weather.forecast', 'calculate'])
    expect(load(tools).result).toMatchObject({ ok: true, hooks: { route: false, summarize: false } })
  })

  it('route receives the context and its names are resolved (aliases, namespace names), sync or async', async () => {
    const { runtime } = load(
      `${tools}import type { RouteContext } from 'toolstep'
export async function route({ messages, step, protocol, tools }: RouteContext) {
  const text = messages[messages.length - 1]?.content ?? ''
  if (step > 0) return [String(tools.length)]
  return /weather/.test(String(text)) && protocol === 'json' ? ['weather', 'calc', 'calculate'] : []
}`,
    )
    expect(await runtime.callRoute({ ...request(), tools: [] })).toEqual({ ok: true, names: ['weather.current', 'weather.forecast', 'calculate'] })
    expect(await runtime.callRoute({ ...request(1), tools: [] })).toEqual({
      ok: false,
      error: { name: 'InvalidRouteError', message: 'route() returned an unknown tool name: "0". Available tools: weather.current, weather.forecast, calculate.', phrase: { ns: 'sandbox', key: 'routeUnknown', params: { count: 1, names: '"0"', known: 'weather.current, weather.forecast, calculate' } } },
    })
  })

  it('route: a wrong return value and a throw are errors; no hook is null', async () => {
    expect(await load(`${tools}export const route = () => 'calculate'`).runtime.callRoute(request())).toMatchObject({
      ok: false,
      error: { message: 'route() must return an array of tool names, not a string.' },
    })
    expect(await load(`${tools}export const route = () => { throw new Error('no idea') }`).runtime.callRoute(request())).toMatchObject({
      ok: false,
      error: { name: 'Error', message: 'no idea' },
    })
    expect(await load(tools).runtime.callRoute(request())).toEqual({ ok: true, names: null })
  })

  it('summarize receives the result, tool and budget; must return a string', async () => {
    const { runtime } = load(`${tools}export const summarize = async (result: string, { tool, maxChars }: { tool: string; maxChars: number }) => tool + ':' + result.slice(0, maxChars)`)
    expect(await runtime.callSummarize('abcdefgh', { tool: 'calculate', maxChars: 3 })).toEqual({ ok: true, summary: 'calculate:abc' })
    expect(await load(`${tools}export const summarize = () => 42`).runtime.callSummarize('x', { tool: 't', maxChars: 1 })).toMatchObject({
      ok: false,
      error: { message: 'summarize() must return a string, not a number.' },
    })
    expect(await load(tools).runtime.callSummarize('x', { tool: 't', maxChars: 1 })).toEqual({ ok: true, summary: null })
  })

  it('a hook export that is not a function is a located error', () => {
    expect(load(`${tools}export const route = ['calculate']`).result).toMatchObject({
      ok: false,
      error: { line: 7, message: expect.stringContaining('"route" is reserved for the routing hook and must be a function') },
    })
  })
})
