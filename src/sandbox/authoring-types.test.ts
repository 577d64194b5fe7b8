import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildAuthoringLibs, type EditorLib } from '../../scripts/authoring-types'
import { examples } from '../examples/index'

const ROOT = process.cwd()
// The native compiler (TypeScript 7): several times faster than the JS one lint needs.
const TSC = join(ROOT, 'node_modules', 'typescript-native', 'bin', 'tsc')

/** User-style code: must type-check, including the inference that makes `tool()` pleasant. */
const GOOD = `import { callTools, lastUserMessage, tool, z, type ModelContext, type ModelResult } from 'toolstep'
export const t = tool({
  description: 'x',
  inputSchema: z.object({
    a: z.string().min(1).describe('a'),
    b: z.number().int().optional(),
    c: z.enum(['x', 'y']).default('x'),
    d: z.array(z.union([z.literal(1), z.null()])).nullable(),
    e: z.record(z.string(), z.boolean()).optional(),
    when: z.iso.datetime().optional(),
    count: z.coerce.number().optional(),
  }),
  execute: (args, { toolCallId }) => {
    const a: string = args.a
    const b: number | undefined = args.b
    const c: 'x' | 'y' = args.c
    const d: (1 | null)[] | null = args.d
    return { a, b, c, d, toolCallId }
  },
})
type Input = z.infer<typeof t.inputSchema>
export const ok: Input = { a: '', c: 'y', d: null }
export default (ctx: ModelContext): ModelResult =>
  ctx.step === 0 ? callTools(ctx.protocol, [{ name: 't', arguments: { a: lastUserMessage(ctx.messages) } }]) : { content: ctx.protocol }
`

/** Wrong calls: each must be a type error, or its @ts-expect-error is itself reported as unused. */
const BAD = `import { callTools, tool, z, type ModelFunction, type ToolSpec } from 'toolstep'
// @ts-expect-error: description is a string
tool({ description: 1, inputSchema: z.object({}), execute: () => 1 })
tool({
  description: 'x',
  inputSchema: z.object({ n: z.number() }),
  // @ts-expect-error: n is a number
  execute: ({ n }) => n.toUpperCase(),
})
// @ts-expect-error: the protocol id comes first
callTools([{ name: 'f', arguments: {} }])
export const model: ModelFunction = (ctx) => {
  // @ts-expect-error: not in the model context
  return ctx.nope
}
// @ts-expect-error: a tool spec needs a description and a schema
export const spec: ToolSpec = { name: 'f' }
// @ts-expect-error: not exported by toolstep
import { notThere } from 'toolstep'
export { notThere }
`

let dir = ''
let libs: EditorLib[] = []

/** Writes `files` under `dir` and type-checks them; returns tsc's report ('' when clean). */
function check(name: string, files: Record<string, string>, paths: Record<string, string[]>): string {
  const project = join(dir, name)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(project, path)), { recursive: true })
    writeFileSync(join(project, path), text)
  }
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      // DOM as well: Monaco's default libs include it, so timers and console type-check in the editor.
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', lib: ['ES2023', 'DOM'], module: 'ESNext', moduleResolution: 'bundler', types: [], skipLibCheck: true, paths },
      files: Object.keys(files).filter((path) => !path.startsWith('node_modules/')),
    }),
  )
  try {
    execFileSync(process.execPath, [TSC, '-p', join(project, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' })
    return ''
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error)
  }
}

function userFiles(): Record<string, string> {
  const files: Record<string, string> = { 'good.ts': GOOD, 'bad.ts': BAD }
  for (const example of examples) {
    files[`${example.id}/tools.ts`] = example.tools
    files[`${example.id}/model.ts`] = example.model
  }
  return files
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolstep-types-'))
  libs = buildAuthoringLibs(ROOT).libs
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the editor types of toolstep, generated from authoring.ts', () => {
  it('are the toolstep module and the real zod, at the paths the editor resolves', () => {
    const paths = libs.map((lib) => lib.path)
    expect(paths[0]).toBe('file:///node_modules/toolstep/index.d.ts')
    expect(paths).toContain('file:///node_modules/toolstep/sandbox/authoring.d.ts')
    expect(paths).toContain('file:///node_modules/zod/index.d.ts')
    expect(paths.every((path) => /^file:\/\/\/node_modules\/(toolstep|zod)\/[\w./-]+\.d\.ts$/.test(path))).toBe(true)
  })

  it('accept user code and the examples, and reject wrong calls, exactly as the real module does', () => {
    const declared: Record<string, string> = userFiles()
    for (const lib of libs) declared[lib.path.slice('file:///'.length)] = lib.content
    // Against the declarations, as in the editor…
    expect(check('declared', declared, {})).toBe('')
    // …and against the source the sandbox runs: the same verdicts.
    expect(check('real', userFiles(), { toolstep: [join(ROOT, 'src/sandbox/authoring.ts')] })).toBe('')
  }, 120_000) // two tsc runs over every example: slow on a loaded machine

  it('would report a wrong call (the check can fail)', () => {
    const declared: Record<string, string> = { 'wrong.ts': "import { tool } from 'toolstep'\ntool({ description: 1 })\n" }
    for (const lib of libs) declared[lib.path.slice('file:///'.length)] = lib.content
    expect(check('wrong', declared, {})).toMatch(/wrong\.ts\(2,/)
  })
})
