import { afterAll, describe, expect, it } from 'vitest'
import { createNodeSandbox } from './node-sandbox'

const TOOLS = `import { tool, z, type RouteContext } from 'toolstep'

export const weather = {
  current: tool({ description: 'now', inputSchema: z.object({ city: z.string() }), execute: ({ city }) => ({ city, temperatureC: 18 }) }),
}
export const add = tool({ description: 'Adds', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b })
export const get_weather = tool({
  description: 'w',
  argumentAliases: { city_name: 'city' },
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => city,
})

export function route({ messages, step }: RouteContext) {
  const text = String(messages[messages.length - 1]?.content ?? '')
  if (text === 'hang') return new Promise<string[]>(() => {})
  if (text === 'bogus') return ['nope', 'add']
  return step === 0 && /weather/.test(text) ? ['weather'] : ['add']
}

export function summarize(result: string, { tool, maxChars }: { tool: string; maxChars: number }) {
  if (result === 'hang') while (true) {}
  return '[' + tool + '] ' + result.slice(0, maxChars)
}
`

const request = (content: string, step = 0) => ({ messages: [{ role: 'user' as const, content }], tools: [], step, protocol: 'openai' })

describe('node sandbox: hooks and code-as-action', () => {
  const sandbox = createNodeSandbox({ modelTimeoutMs: 400 })
  afterAll(() => sandbox.dispose())

  it('reports hooks and argumentAliases in the load result', async () => {
    const loaded = await sandbox.load({ tools: TOOLS })
    expect(loaded).toMatchObject({ ok: true, hooks: { route: true, summarize: true } })
    expect(loaded.tools.map((tool) => tool.name)).toEqual(['weather.current', 'add', 'get_weather'])
    expect(loaded.tools[2]?.argumentAliases).toEqual({ city_name: 'city' })
  })

  it('routes, and rejects unknown names naming them', async () => {
    expect(await sandbox.route(request('weather in Paris'))).toEqual(['weather.current'])
    expect(await sandbox.route(request('weather in Paris', 1))).toEqual(['add'])
    await expect(sandbox.route(request('bogus'))).rejects.toThrow('route() returned an unknown tool name: "nope".')
  })

  it('summarizes', async () => {
    expect(await sandbox.summarize('abcdef', { tool: 'add', maxChars: 2 })).toBe('[add] ab')
  })

  it('times out a hung route or summarize at the model timeout, then works again', async () => {
    await expect(sandbox.route(request('hang'))).rejects.toThrow('route() in tools.ts timed out after 400 ms and was stopped.')
    await expect(sandbox.summarize('hang', { tool: 'add', maxChars: 2 })).rejects.toThrow('summarize() in tools.ts timed out after 400 ms')
    expect(await sandbox.route(request('sum'))).toEqual(['add'])
  })

  it('runs code with the tools in scope and records the calls', async () => {
    const outcome = await sandbox.runCode(
      "const w = await weather.current({ city: 'Paris' })\nconst sum = await add({ a: w.temperatureC, b: 2 })\nconsole.log(`${w.city}: ${sum}`)",
      { timeoutMs: 2000, maxOutputChars: 100 },
    )
    expect(outcome).toEqual({
      ok: true,
      output: 'Paris: 20',
      calls: [
        { name: 'weather.current', arguments: { city: 'Paris' }, result: '{"city":"Paris","temperatureC":18}', durationMs: expect.any(Number) },
        { name: 'add', arguments: { a: 18, b: 2 }, result: '20', durationMs: expect.any(Number) },
      ],
      durationMs: expect.any(Number),
      timedOut: false,
      truncated: false,
    })
  })

  it('reports a thrown error with its line', async () => {
    const outcome = await sandbox.runCode("console.log('one')\nnotATool()", { timeoutMs: 2000, maxOutputChars: 100 })
    expect(outcome).toMatchObject({ ok: false, output: 'one', error: 'ReferenceError: notATool is not defined (line 2)', timedOut: false })
  })

  it('kills a hung block at timeoutMs, keeping what it printed and called, and the sandbox recovers', async () => {
    const outcome = await sandbox.runCode("console.log('working')\nawait add({ a: 1, b: 1 })\nwhile (true) {}", { timeoutMs: 400, maxOutputChars: 100 })
    expect(outcome).toMatchObject({
      ok: false,
      timedOut: true,
      output: 'working',
      error: 'The code did not finish within 400 ms and was stopped.',
      calls: [{ name: 'add', result: '2' }],
    })
    const next = await sandbox.runCode('await new Promise(() => {})', { timeoutMs: 300, maxOutputChars: 100 })
    expect(next).toMatchObject({ ok: false, timedOut: true, output: '', calls: [] })
    expect(await sandbox.execute({ id: 'c1', name: 'get_weather', arguments: { city_name: 'Rome' } }, { name: 'get_weather', description: '', inputSchema: {} })).toMatchObject({
      ok: true,
      result: 'Rome',
    })
  })

  it('returns null from route and summarize when tools.ts has no hooks', async () => {
    const plain = createNodeSandbox()
    try {
      const loaded = await plain.load({ tools: "import { tool, z } from 'toolstep'\nexport const t = tool({ description: 't', inputSchema: z.object({}), execute: () => 1 })" })
      expect(loaded.hooks).toEqual({ route: false, summarize: false })
      expect(await plain.route(request('x'))).toBeNull()
      expect(await plain.summarize('x', { tool: 't', maxChars: 1 })).toBeNull()
    } finally {
      plain.dispose()
    }
  })
})
