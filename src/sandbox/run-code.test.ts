import { describe, expect, it } from 'vitest'
import { createRuntime } from './runtime'

const TOOLS = `import { tool, z } from 'toolstep'

export const get_weather = tool({
  description: 'Weather',
  argumentAliases: { city_name: 'city' },
  inputSchema: z.object({ city: z.string(), days: z.number().int().default(1) }),
  execute: ({ city, days }) => ({ city, days, temperatureC: 21 }),
})
export const weather = {
  current: tool({ description: 'now', inputSchema: z.object({ city: z.string() }), execute: ({ city }) => 'sunny in ' + city }),
}
export const explode = tool({
  description: 'Throws',
  inputSchema: z.object({}),
  execute: () => {
    throw new RangeError('kaboom')
  },
})
export const delete_file = tool({ description: 'rm', dangerous: true, inputSchema: z.object({ path: z.string() }), execute: () => 'gone' })
export const probe = tool({ description: 'globals', inputSchema: z.object({}), execute: () => typeof globalThis })
`

function runtimeWithTools() {
  const runtime = createRuntime()
  const loaded = runtime.load('tools.ts', TOOLS)
  expect(loaded.ok).toBe(true)
  return runtime
}

const run = (code: string, maxOutputChars = 10_000) => runtimeWithTools().runCode(code, { maxOutputChars })

describe('runtime: code-as-action', () => {
  it('calls tools as async functions that return the value itself, and records each call', async () => {
    const result = await run(`const w = await get_weather({ city: 'Paris' })
const now: string = await weather.current({ city: 'Oslo' })
console.log(w.city, w.temperatureC + 1, typeof w)
console.log(now)`)
    expect(result).toEqual({
      ok: true,
      output: 'Paris 22 object\nsunny in Oslo',
      truncated: false,
      calls: [
        { name: 'get_weather', arguments: { city: 'Paris' }, result: '{"city":"Paris","days":1,"temperatureC":21}', durationMs: expect.any(Number) },
        { name: 'weather.current', arguments: { city: 'Oslo' }, result: 'sunny in Oslo', durationMs: expect.any(Number) },
      ],
    })
  })

  it('parses arguments with the tool schema (aliases applied) and throws a catchable error when they fail', async () => {
    const result = await run(`const w = await get_weather({ city_name: 'Rome', days: 2 })
console.log(w.city, w.days)
try {
  await get_weather({ city: 42 })
} catch (error) {
  console.error((error as Error).message)
}`)
    expect(result.ok).toBe(true)
    expect(result.output).toBe('Rome 2\n[error] Invalid arguments for tool "get_weather": city: expected string, received number')
    expect(result.calls.map((call) => call.error ?? call.result)).toEqual([
      '{"city":"Rome","days":2,"temperatureC":21}',
      'Invalid arguments for tool "get_weather": city: expected string, received number',
    ])
  })

  it('captures log, info, warn and error; formats values', async () => {
    const result = await run(`console.log('a', 1, { b: [true, null] }, undefined)
console.info('info')
console.warn('careful')
console.error(new TypeError('bad'))`)
    expect(result.output).toBe('a 1 {"b":[true,null]} undefined\ninfo\n[warn] careful\n[error] TypeError: bad')
  })

  it('caps output at maxOutputChars and says so', async () => {
    const result = await run(`for (let i = 0; i < 100; i++) console.log('line ' + i)`, 20)
    expect(result).toMatchObject({ ok: true, truncated: true, output: 'line 0\nline 1\nline 2' })
    expect(result.output).toHaveLength(20)
  })

  it('reports an error thrown by the code with its line in the block', async () => {
    const result = await run(`console.log('before')
const x: number = 1

throw new TypeError('nope ' + x)`)
    expect(result).toEqual({ ok: false, output: 'before', truncated: false, error: 'TypeError: nope 1 (line 4)', calls: [] })
  })

  it('reports an uncaught tool failure at the line that awaited it', async () => {
    const result = await run(`console.log('start')
await explode()`)
    expect(result).toMatchObject({ ok: false, error: 'RangeError: kaboom (line 2)' })
    expect(result.calls).toEqual([{ name: 'explode', arguments: {}, error: 'RangeError: kaboom', durationMs: expect.any(Number) }])
  })

  it('reports syntax errors with their line', async () => {
    expect(await run(`const a = 1\nconst b = (;`)).toMatchObject({ ok: false, error: expect.stringMatching(/^SyntaxError: .*\(line 2\)$/) })
    expect(await run(`const a = 1\nlet = = 2`)).toMatchObject({ ok: false, error: expect.stringMatching(/^SyntaxError: .*\(line 2\)$/) })
  })

  it('accepts a fenced block and TypeScript', async () => {
    const result = await run('```ts\ninterface W { city: string }\nconst w: W = await get_weather({ city: "Lima" })\nconsole.log(w.city)\n```')
    expect(result).toMatchObject({ ok: true, output: 'Lima' })
  })

  it('shadows dangerous globals, keeps strict-mode this undefined, and puts nothing but the tools in scope', async () => {
    const result = await run(`console.log(typeof self, typeof globalThis, typeof postMessage, typeof fetch, typeof require, typeof process, typeof importScripts, typeof Function)
console.log(typeof this, typeof get_weather, typeof weather, typeof weather.current, typeof explode)
console.log(await probe())`)
    expect(result.output).toBe('undefined undefined undefined undefined undefined undefined undefined undefined\nundefined function object function function\nobject')
  })

  it('refuses dangerous tools, which need a confirmation that cannot happen mid-block', async () => {
    const result = await run(`await delete_file({ path: '/tmp/x' })`)
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('is marked dangerous') })
    expect(result.calls[0]).toMatchObject({ name: 'delete_file', error: expect.stringContaining('cannot be called from code') })
  })

  it('does not let an unawaited failing call take the block down', async () => {
    const result = await run(`explode()\nawait new Promise((resolve) => setTimeout(resolve, 10))\nconsole.log('still here')`)
    expect(result).toMatchObject({ ok: true, output: 'still here' })
  })
})
