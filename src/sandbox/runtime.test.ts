import { describe, expect, it } from 'vitest'
import { createRuntime } from './runtime'

const header = "import { tool, z } from 'toolstep'\n"

function loadTools(source: string) {
  const runtime = createRuntime()
  return { runtime, result: runtime.load('tools.ts', source) }
}

describe('runtime: loading tools.ts', () => {
  it('collects named exports made by tool(), ignores helpers, and converts schemas to JSON Schema', () => {
    const { result } = loadTools(
      header +
        `export const get_weather = tool({
  description: 'Weather',
  inputSchema: z.object({ city: z.string().describe('City'), unit: z.enum(['c', 'f']).default('c') }),
  dangerous: true,
  timeoutMs: 1500,
  aliases: ['weather'],
  execute: ({ city }) => city,
})
export function helper() { return 1 }
export const LIMIT = 3
`,
    )
    expect(result).toEqual({
      ok: true,
      hasModel: false,
      hooks: { route: false, summarize: false },
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          inputSchema: {
            type: 'object',
            properties: { city: { type: 'string', description: 'City' }, unit: { type: 'string', enum: ['c', 'f'], default: 'c' } },
            required: ['city'],
          },
          dangerous: true,
          timeoutMs: 1500,
          aliases: ['weather'],
        },
      ],
    })
  })

  it('leaves zod\'s safe-integer bounds out of the JSON Schema the model sees', () => {
    const { result } = loadTools(header + `export const days = tool({ description: 'D', inputSchema: z.object({ n: z.number().int().max(7), m: z.number().int() }), execute: () => '' })`)
    expect(result).toMatchObject({ ok: true })
    const schema = result.ok ? result.tools[0]!.inputSchema : {}
    expect(schema).toMatchObject({ properties: { n: { type: 'integer', maximum: 7 }, m: { type: 'integer' } } })
    expect(JSON.stringify(schema)).not.toContain('9007199254740991')
  })

  it('accepts a default-exported object of tools and tolerates the same tool exported both ways', () => {
    const { result } = loadTools(
      header +
        `export const a = tool({ description: 'A', inputSchema: z.object({}), execute: () => 'a' })
export default { a, b: tool({ description: 'B', inputSchema: z.object({}), execute: () => 'b' }) }`,
    )
    expect(result.ok && result.tools.map((t) => t.name)).toEqual(['a', 'b'])
  })

  it('reports a duplicate tool name', () => {
    const { result } = loadTools(
      header +
        `export const a = tool({ description: 'A', inputSchema: z.object({}), execute: () => 'a' })
export default { a: tool({ description: 'other A', inputSchema: z.object({}), execute: () => 'b' }) }`,
    )
    expect(result).toEqual({
      ok: false,
      error: {
        file: 'tools.ts',
        line: 3,
        column: 18,
        message:
          'Tool "a" is defined twice: by the named export "a" (line 2) and by "a" in the default export (line 3). Tool names must be unique; rename one of them.',
      },
    })
  })

  it.each([
    ['no execute', `export const t = tool({ description: 'x', inputSchema: z.object({}) } as any)`, '`execute` must be a function'],
    ['not a zod schema', `export const t = tool({ description: 'x', inputSchema: { type: 'object' } as any, execute: () => 1 })`, '`inputSchema` must be a zod schema'],
    ['not an object schema', `export const t = tool({ description: 'x', inputSchema: z.string(), execute: () => 1 })`, 'must be an object schema'],
    ['bad timeout', `export const t = tool({ description: 'x', inputSchema: z.object({}), timeoutMs: -5, execute: () => 1 })`, '`timeoutMs` must be a positive'],
    ['plain function in the default object', `export default { t: () => 1 }`, '"t" in the default export is not a tool'],
    ['single default tool', `export default tool({ description: 'x', inputSchema: z.object({}), execute: () => 1 })`, 'has no name'],
  ])('reports an invalid tool: %s', (_label, source, message) => {
    const { result } = loadTools(header + source)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.message).toContain(message)
  })

  it('places an invalid tool on its definition', () => {
    const { result } = loadTools(header + `export default {\n  ok: tool({ description: 'x', inputSchema: z.object({}), execute: () => 1 }),\n  'bad.one': tool({ description: 'x', inputSchema: z.number(), execute: () => 1 }),\n}`)
    expect(result).toMatchObject({ ok: false, error: { line: 4, column: 4, message: expect.stringContaining('Tool "bad.one"') } })
  })

  it('locates syntax errors (1-based line and column)', () => {
    const { result } = loadTools(header + 'export const x: number = 1\nconst y = (;\n')
    expect(result).toEqual({ ok: false, error: { file: 'tools.ts', line: 3, column: 12, message: 'SyntaxError: Unexpected token' } })
  })

  it('names a module that cannot be imported, at its line', () => {
    const { result } = loadTools(header + "import _ from 'lodash'\nexport const x = _\n")
    expect(result).toEqual({
      ok: false,
      error: { file: 'tools.ts', line: 2, column: expect.any(Number), message: expect.stringContaining('Cannot import "lodash" in tools.ts') },
    })
  })

  it('locates an error thrown by top-level code', () => {
    const runtime = createRuntime()
    const result = runtime.load('model.ts', "const a = 1\n\nthrow new TypeError('boom')\nexport default () => ''\n")
    expect(result).toEqual({ ok: false, error: { file: 'model.ts', line: 3, column: expect.any(Number), message: 'TypeError: boom' } })
  })

  it('reports a top-level throw of a proxy whose every trap throws as a load error of its file', () => {
    const runtime = createRuntime()
    const traps = "{ get() { throw 't' }, getPrototypeOf() { throw 'p' }, has() { throw 'h' }, ownKeys() { throw 'k' }, getOwnPropertyDescriptor() { throw 'd' } }"
    for (const file of ['tools.ts', 'model.ts'] as const) {
      const result = runtime.load(file, `${header}throw new Proxy({}, ${traps})\n`)
      expect(result).toEqual({ ok: false, error: { file, message: expect.stringMatching(/^Error: /) } })
    }
    // Thrown by an export's getter, read as the tools are collected.
    const getter = runtime.load('tools.ts', `${header}export const x = { get description() { throw new Proxy({}, ${traps}) } }\n`)
    expect(getter).toMatchObject({ ok: false, error: { file: 'tools.ts' } })
  })

  it('drops the previous tools when a reload fails', async () => {
    const runtime = createRuntime()
    runtime.load('tools.ts', header + `export const a = tool({ description: 'A', inputSchema: z.object({}), execute: () => 'a' })`)
    expect(runtime.load('tools.ts', 'const = ').ok).toBe(false)
    expect(await runtime.executeTool('a', {}, 'c1')).toMatchObject({ ok: false, error: { name: 'UnknownToolError' } })
  })
})

describe('runtime: executing tools', () => {
  const { runtime } = loadTools(
    header +
      `export const echo = tool({
  description: 'Echo',
  aliases: ['say'],
  inputSchema: z.object({ text: z.string(), times: z.number().int().default(1) }),
  execute: ({ text, times }, { toolCallId }) => times === 1 ? text : { text: text.repeat(times), toolCallId },
})
export const fail = tool({ description: 'Throws', inputSchema: z.object({}), execute: () => { throw new RangeError('nope') } })
export const rejects = tool({ description: 'Rejects', inputSchema: z.object({}), execute: async () => { throw 'plain string' } })
export const nothing = tool({ description: 'Void', inputSchema: z.object({}), execute: () => undefined })
export const cyclic = tool({ description: 'Cyclic', inputSchema: z.object({}), execute: () => { const a: any = {}; a.a = a; return a } })
`,
  )

  it('returns strings as-is and other values as JSON, with defaults applied', async () => {
    expect(await runtime.executeTool('echo', { text: 'hi' }, 'c1')).toEqual({ ok: true, result: 'hi' })
    expect(await runtime.executeTool('echo', { text: 'hi', times: 2 }, 'c7')).toEqual({ ok: true, result: '{"text":"hihi","toolCallId":"c7"}' })
    expect(await runtime.executeTool('nothing', {}, 'c1')).toEqual({ ok: true, result: '' })
  })

  it('resolves aliases', async () => {
    expect(await runtime.executeTool('say', { text: 'yo' }, 'c1')).toEqual({ ok: true, result: 'yo' })
  })

  it('rejects arguments that fail the schema before running the tool', async () => {
    expect(await runtime.executeTool('echo', { text: 3, times: 1.5 }, 'c1')).toEqual({
      ok: false,
      error: { name: 'InvalidArgumentsError', message: 'Invalid arguments for tool "echo": text: expected string, received number; times: expected int, received number' },
    })
  })

  it('serialises thrown errors with a stack pointing into tools.ts', async () => {
    const result = await runtime.executeTool('fail', {}, 'c1')
    expect(result).toMatchObject({ ok: false, error: { name: 'RangeError', message: 'nope' } })
    if (!result.ok) expect(result.error.stack).toMatch(/tools\.ts:8:\d+/)
    expect(await runtime.executeTool('rejects', {}, 'c1')).toEqual({ ok: false, error: { name: 'Error', message: 'plain string' } })
  })

  it('reports results that cannot be written as JSON', async () => {
    expect(await runtime.executeTool('cyclic', {}, 'c1')).toMatchObject({ ok: false, error: { name: 'ResultSerializationError' } })
  })

  it('says how deep a result nests when it is too deep to be written as JSON, not that the stack overflowed', async () => {
    const deep = createRuntime()
    expect(deep.load('tools.ts', `import { tool, z } from 'toolstep'
export const nest = tool({ description: 'Nests.', inputSchema: z.object({}), execute: () => { let value: unknown = 1; for (let i = 0; i < 100_000; i++) value = { a: value }; return value } })
`).ok).toBe(true)
    // V8's JSON.stringify overflows its stack; the QuickJS VM's guarded one stops at 1000 levels.
    expect(await deep.executeTool('nest', {}, 'c1')).toEqual({
      ok: false,
      error: {
        name: 'ResultSerializationError',
        message: expect.stringMatching(/^Tool "nest" returned a value that cannot be written as JSON: (it is nested 100,000 levels deep, more than JSON\.stringify can write|JSON\.stringify: the value is nested deeper than 1000 levels\.)$/),
      },
    })
  })

  it('never resolves inherited property names as tools', async () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      expect(await runtime.executeTool(name, {}, 'c1')).toMatchObject({ ok: false, error: { name: 'UnknownToolError' } })
    }
  })

  it('words an unknown tool as the engine does (the name quoted as JSON, a clear "no tools")', async () => {
    const result = await runtime.executeTool('say "hi"', {}, 'c1')
    expect(result).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^Unknown tool "say \\"hi\\"". Available tools: echo, /) } })
    expect(await createRuntime().executeTool('constructor', {}, 'c1')).toEqual({
      ok: false,
      error: { name: 'UnknownToolError', message: 'Unknown tool "constructor". No tools are available.' },
    })
  })
})

describe('runtime: calling the model', () => {
  const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [], step: 2, protocol: 'openai' }

  it('passes the context and wraps a string as text', async () => {
    const runtime = createRuntime()
    runtime.load('model.ts', "import type { ModelContext } from 'toolstep'\nexport default (ctx: ModelContext) => `${ctx.protocol}:${ctx.step}:${ctx.messages.length}`")
    expect(await runtime.callModel(request)).toEqual({ ok: true, output: { kind: 'text', raw: 'openai:2:1' } })
  })

  it('accepts a native message, stringifying object arguments and numbering ids by step', async () => {
    const runtime = createRuntime()
    runtime.load(
      'model.ts',
      "import { nextCallId } from 'toolstep'\nexport default async () => ({ tool_calls: [{ id: nextCallId(), function: { name: 'f', arguments: { a: 1 } } }] })",
    )
    expect(await runtime.callModel(request)).toEqual({
      ok: true,
      output: { kind: 'message', message: { content: null, tool_calls: [{ id: 'call_2_1', function: { name: 'f', arguments: '{"a":1}' } }] } },
    })
  })

  it('reports a wrong return value, a throw, and a missing default export', async () => {
    const runtime = createRuntime()
    runtime.load('model.ts', 'export default () => 42')
    expect(await runtime.callModel(request)).toMatchObject({ ok: false, error: { message: expect.stringContaining('must return a string or an assistant message') } })
    // An object that is not a message is an error, not an empty final answer.
    runtime.load('model.ts', 'export default () => ({ foo: 1 })')
    expect(await runtime.callModel(request)).toMatchObject({ ok: false, error: { name: 'InvalidModelOutputError', message: expect.stringContaining('without "content" or "tool_calls" (it has: foo)') } })
    runtime.load('model.ts', "export default () => { throw new Error('model broke') }")
    expect(await runtime.callModel(request)).toMatchObject({ ok: false, error: { name: 'Error', message: 'model broke' } })
    expect(runtime.load('model.ts', 'export const x = 1')).toEqual({ ok: false, error: { file: 'model.ts', message: expect.stringContaining('no default export') } })
    expect(await runtime.callModel(request)).toMatchObject({ ok: false, error: { message: expect.stringContaining('not loaded') } })
  })
})
