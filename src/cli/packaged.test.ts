/**
 * The built CLI as an install lays it out: Toolstep's folder holds no node_modules of its own
 * (npm hoists zod, sucrase and the rest beside it), and the sandbox child may read only
 * Toolstep's folder under Node's permission model.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { writeWorkspace } from '../core/files/workspace-file'
import { runNode } from '../test/run-export'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
// Outside the repository, so no node_modules above it resolves anything.
const dir = mkdtempSync(join(tmpdir(), 'toolstep-packaged-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('runs a workspace from a Toolstep folder with no dependencies beside or inside it', async () => {
  const pkg = join(dir, 'node_modules', 'toolstep')
  mkdirSync(pkg, { recursive: true })
  const built = await runNode(join(ROOT, 'node_modules/vite/bin/vite.js'), ['build', '--ssr', '--config', 'vite.cli.config.ts', '--outDir', join(pkg, 'dist-cli'), '--emptyOutDir', '--logLevel', 'error'], { cwd: ROOT })
  expect(built.code, built.stderr).toBe(0)
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'))
  const tools = `import { tool, z } from 'toolstep'
export const add = tool({ description: 'Adds.', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => String(a + b) })
`
  const model = `import type { ModelContext } from 'toolstep'
export default function model({ step, messages }: ModelContext) {
  if (step === 0) return { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a": 2, "b": 3}' } }] }
  return 'sum: ' + String(messages[messages.length - 1]?.content)
}
`
  const workspace = join(dir, 'w.json')
  writeFileSync(workspace, writeWorkspace({ tools, model, input: 'go', settings: { protocol: 'openai', maxSteps: 3, systemPrompt: '' } }))
  const { code, stdout, stderr } = await runNode(join(pkg, 'dist-cli', 'cli.js'), ['run', workspace], { cwd: dir })
  expect(stderr).not.toContain('ERR_ACCESS_DENIED')
  expect(code).toBe(0)
  expect(stdout).toContain('sum: 5')
}, 120_000)
