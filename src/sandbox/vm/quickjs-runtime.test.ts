import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { beforeAll, describe, expect, it } from 'vitest'
import { createQuickJsRuntime } from './quickjs-runtime'

let module: QuickJSWASMModule
beforeAll(async () => {
  module = await newQuickJSWASMModuleFromVariant(variant)
})

const header = "import { tool, z } from 'toolstep'\n"

describe('QuickJS runtime', () => {
  it('loads tools with zod schemas and runs them', async () => {
    const runtime = createQuickJsRuntime(module)
    const loaded = runtime.load('tools.ts', header + `export const add = tool({ description: 'Add', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => { await new Promise((r) => setTimeout(r, 5)); return a + b } })\n`)
    expect(loaded).toMatchObject({ ok: true, tools: [{ name: 'add', inputSchema: { type: 'object', required: ['a', 'b'] } }] })
    expect(await runtime.executeTool('add', { a: 2, b: 3 }, 'c1')).toEqual({ ok: true, result: '5' })
    expect(await runtime.executeTool('add', { a: 'x', b: 3 }, 'c1')).toMatchObject({ ok: false, error: { name: 'InvalidArgumentsError' } })
    runtime.dispose()
  })
})
