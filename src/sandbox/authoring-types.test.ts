import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { examples } from '../examples/index'
import * as authoring from './authoring'
import authoringSource from './authoring.ts?raw'
import { AUTHORING_TYPES } from './authoring-types'

/** Names exported by authoring.ts: values from the module, types from its source text. */
function authoringExports(): string[] {
  const names = new Set(Object.keys(authoring))
  for (const match of authoringSource.matchAll(/^export (?:declare )?(?:function|const|let|class|interface|type) (\w+)/gm)) names.add(match[1] as string)
  for (const match of authoringSource.matchAll(/^export (?:type )?\{([^}]*)\}/gm)) {
    for (const part of (match[1] as string).split(',')) {
      const name = part.trim().split(/\s+as\s+/).pop()
      if (name) names.add(name)
    }
  }
  return [...names].sort()
}

const TSC = join(process.cwd(), 'node_modules', '.bin', 'tsc')

describe('authoring types for the editor', () => {
  it('declares every export of authoring.ts', () => {
    const declared = AUTHORING_TYPES.slice(AUTHORING_TYPES.indexOf("declare module 'toolstep' {"))
    const missing = authoringExports().filter(
      (name) => !new RegExp(`export (?:function|const|interface|type) ${name}\\b|export \\{[^}]*\\b${name}\\b`).test(declared),
    )
    expect(authoringExports()).toContain('tool')
    expect(missing).toEqual([])
  })

  // The editor type-checks user code against these declarations, so the examples must pass, and
  // the inference that makes `tool()` pleasant must hold.
  it.skipIf(!existsSync(TSC))('type-checks the examples and the inference of tool()', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolstep-types-'))
    try {
      writeFileSync(join(dir, 'toolstep.d.ts'), AUTHORING_TYPES)
      const files = ['toolstep.d.ts', 'inference.ts']
      for (const example of examples) {
        mkdirSync(join(dir, example.id))
        writeFileSync(join(dir, example.id, 'tools.ts'), example.tools)
        writeFileSync(join(dir, example.id, 'model.ts'), example.model)
        files.push(`${example.id}/tools.ts`, `${example.id}/model.ts`)
      }
      writeFileSync(
        join(dir, 'inference.ts'),
        `import { tool, z, type ModelContext, type ModelResult } from 'toolstep'
export const t = tool({
  description: 'x',
  inputSchema: z.object({
    a: z.string().min(1).describe('a'),
    b: z.number().int().optional(),
    c: z.enum(['x', 'y']).default('x'),
    d: z.array(z.union([z.literal(1), z.null()])).nullable(),
    e: z.record(z.string(), z.boolean()).optional(),
  }),
  execute: (args) => {
    const a: string = args.a
    const b: number | undefined = args.b
    const c: 'x' | 'y' = args.c
    const d: (1 | null)[] | null = args.d
    // @ts-expect-error: not in the schema
    args.nope
    return { a, b, c, d }
  },
})
type Input = z.infer<typeof t.inputSchema>
export const ok: Input = { a: '', c: 'y', d: null }
export default (ctx: ModelContext): ModelResult => ({ content: ctx.protocol })
`,
      )
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          // DOM as well: Monaco's default libs include it, so timers and console type-check in the editor.
          compilerOptions: { strict: true, noEmit: true, target: 'ES2022', lib: ['ES2023', 'DOM'], module: 'ESNext', moduleResolution: 'bundler', types: [], skipLibCheck: false },
          files,
        }),
      )
      let output = ''
      try {
        execFileSync(TSC, ['-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' })
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error)
      }
      expect(output).toBe('')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
