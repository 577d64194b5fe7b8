import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { transformSync } from 'esbuild'
import bundle from 'virtual:toolstep-export-kit'
import { describe, expect, it } from 'vitest'
import { examples } from '../../examples/index'
import { loopSettings } from '../loop/index'
import { exportFolder } from '../../test/run-export'
import { adaptTools, ExportError, writeLoopProgram, writeLoopTest } from './index'

const endpoint = { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3:8b', stream: true }

function programOf(tools: string, settings: Record<string, unknown> = {}): string {
  return writeLoopProgram({ workspace: { tools, input: 'hi', settings: { protocol: 'xml-tag', maxSteps: 4, systemPrompt: '', loop: loopSettings(settings) } }, endpoint, bundle })
}

describe('writeLoopProgram', () => {
  it.each(examples.map((example) => [example.id, example] as const))('exports the %s example as one file that compiles', (_id, example) => {
    const text = writeLoopProgram({ workspace: { tools: example.tools, input: example.input, settings: { protocol: example.protocol, maxSteps: example.maxSteps ?? 10, systemPrompt: example.systemPrompt ?? '', loop: loopSettings(example.settings) } }, endpoint, bundle })
    expect(text).not.toMatch(/from ['"]toolstep['"]/)
    expect(text.match(/^import .* from 'zod'$/gm)?.length).toBeGreaterThanOrEqual(1)
    expect(() => transformSync(text, { loader: 'ts', format: 'esm' })).not.toThrow()
    expect(text).toContain(`"protocol": "${example.protocol}"`)
  })

  it('the default example exports to a file that type-checks under strict TypeScript', () => {
    const weather = examples[0]!
    const folder = exportFolder()
    try {
      const file = folder.write('toolstep-loop.ts', writeLoopProgram({ workspace: { tools: weather.tools, input: weather.input, settings: { protocol: 'xml-tag', maxSteps: 6, systemPrompt: '', loop: loopSettings({}) } }, endpoint, bundle }))
      const tsc = fileURLToPath(new URL('../../../node_modules/typescript-native/bin/tsc', import.meta.url))
      const check = () => execFileSync(process.execPath, [tsc, '--noEmit', '--ignoreConfig', '--strict', '--noUncheckedIndexedAccess', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--types', 'node', '--skipLibCheck', file], { encoding: 'utf8', stdio: 'pipe' })
      expect(check).not.toThrow()
    } finally {
      folder.remove()
    }
  })

  it('names the settings it does not carry over', () => {
    const code = examples.find((e) => e.id === 'code-as-action')!
    const text = writeLoopProgram({ workspace: { tools: code.tools, input: code.input, settings: { protocol: code.protocol, maxSteps: 6, systemPrompt: '', loop: loopSettings(code.settings) } }, endpoint, bundle })
    expect(text).toMatch(/Not carried over from the workspace:\n\/\/ {3}- code-as-action/)
  })

  it('puts the endpoint in the file, and the environment variables that override it', () => {
    const text = programOf("import { tool, z } from 'toolstep'\nexport const t = tool({ description: 'd', inputSchema: z.object({}), execute: () => 1 })\n")
    expect(text).toContain('"baseUrl": "http://127.0.0.1:11434/v1"')
    expect(text).toContain('"model": "qwen3:8b"')
    expect(text).toContain('TOOLSTEP_API_KEY')
    expect(text).toContain('const TOOLS = toolstep.loadTools({ t })')
  })

  it('never writes a credential given as an extra header, and names the header it left out', () => {
    const tools = "import { tool, z } from 'toolstep'\nexport const t = tool({ description: 'd', inputSchema: z.object({}), execute: () => 1 })\n"
    const headers = { Authorization: 'Bearer sk-secret-1', 'X-Api-Key': 'sk-secret-2', 'OpenAI-Organization': 'org-1' }
    const text = writeLoopProgram({ workspace: { tools, input: 'hi', settings: { protocol: 'openai', maxSteps: 4, systemPrompt: '' } }, endpoint: { ...endpoint, headers }, bundle })
    expect(text).not.toContain('sk-secret')
    expect(text).toContain('"OpenAI-Organization": "org-1"')
    expect(text).toMatch(/Not carried over from the workspace:[^]*header Authorization, X-Api-Key/)
  })

  it('never writes a password or key carried in the endpoint URL, and says what it left out', () => {
    const tools = "import { tool, z } from 'toolstep'\nexport const t = tool({ description: 'd', inputSchema: z.object({}), execute: () => 1 })\n"
    const text = writeLoopProgram({ workspace: { tools, input: 'hi', settings: { protocol: 'openai', maxSteps: 4, systemPrompt: '' } }, endpoint: { ...endpoint, baseUrl: 'https://me:pw-secret@api.example.test/v1?key=sk-secret&region=eu' }, bundle })
    expect(text).not.toContain('pw-secret')
    expect(text).not.toContain('sk-secret')
    expect(text).toContain('"baseUrl": "https://api.example.test/v1?key=REDACTED&region=eu"')
    expect(text).toMatch(/Not carried over from the workspace:[^]*user name and password in the URL, the URL's "key" parameter/)
  })

  it('refuses a tools.ts that declares a name the loop uses, and says which', () => {
    expect(() => programOf("import { tool, z } from 'toolstep'\nconst runLoop = 1\n")).toThrow(/declares "runLoop"/)
  })
})

describe('adaptTools', () => {
  it('replaces the toolstep imports, keeps zod ones, renames the default export and lists the exports', () => {
    const adapted = adaptTools(
      [
        "import { tool as defineTool, z } from 'toolstep'",
        "import type { RouteContext, ToolSpec } from 'toolstep'",
        "const get = defineTool({ description: 'd', inputSchema: z.object({}), execute: () => 1 })",
        'export const weather = { current: get }',
        'export { get as fetch_it }',
        'export default { other: get }',
        'export function route(ctx: RouteContext) { return [] }',
      ].join('\n'),
    )
    expect(adapted.code).toContain('const defineTool = tool')
    expect(adapted.code).not.toContain("from 'toolstep'")
    expect(adapted.code).toContain('const toolsDefault = { other: get }')
    expect(adapted.exports).toEqual({ weather: 'weather', route: 'route', fetch_it: 'get', default: 'toolsDefault' })
    expect(adapted.types).toEqual(['type RouteContext = { messages: Message[]; tools: ToolSpec[]; step: number; protocol: string }'])
    expect(adapted.bindsZ).toBe(false)
    expect(adaptTools("import { z } from 'zod'\n").bindsZ).toBe(true)
  })

  it('lists exports whose names are not ASCII', () => {
    const adapted = adaptTools("import { tool, z } from 'toolstep'\nexport const 天气 = tool({ name: 'tianqi', description: 'd', inputSchema: z.object({}), execute: () => '晴' })\nexport function météo() {}\n")
    expect(adapted.exports).toEqual({ 天气: '天气', météo: 'météo' })
  })

  it('reports imports an exported loop cannot carry', () => {
    expect(() => adaptTools("import { readFileSync } from 'node:fs'\n")).toThrow(ExportError)
    expect(() => adaptTools("import { lastUserMessage } from 'toolstep'\n")).toThrow(/provides only tool and z/)
    expect(() => adaptTools("import * as ts from 'toolstep'\n")).toThrow(/import its names instead/)
  })
})

describe('writeLoopTest', () => {
  it('needs model output to replay', () => {
    expect(() => writeLoopTest({ workspace: { tools: '', input: '', settings: { protocol: 'json', maxSteps: 2, systemPrompt: '' } }, events: [], bundle })).toThrow(/no model output/)
  })
})
