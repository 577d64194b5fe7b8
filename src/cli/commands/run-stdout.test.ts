/**
 * `toolstep run --json` in a real process: stdout is the session file, whatever user code writes
 * to its own stdout (the sandbox child's output goes to stderr).
 */
import { afterEach, beforeEach, expect, it } from 'vitest'
import { fileURLToPath } from 'node:url'
import { readSession } from '../../core/files/session-file'
import { writeWorkspace } from '../../core/files/workspace-file'
import { exportFolder, runTsx } from '../../test/run-export'

const BIN = fileURLToPath(new URL('../bin.ts', import.meta.url))

let folder: ReturnType<typeof exportFolder>
beforeEach(() => {
  folder = exportFolder()
})
afterEach(() => folder.remove())

it('user code writing to stdout (process.stdout, fd 1) does not corrupt the --json session; it reaches stderr', async () => {
  const tools = `import { tool, z } from 'toolstep'
const fs = (process as any).getBuiltinModule('node:fs')
process.stdout.write(['LOADED', 'NOISE'].join('-') + '\\n')
export const noisy = tool({ description: '', inputSchema: z.object({}), execute: () => { fs.writeSync(1, ['CALL', 'NOISE'].join('-') + '\\n'); return 'ok' } })
`
  const model = `import type { ModelContext } from 'toolstep'
export default function model({ step }: ModelContext) {
  if (step === 0) return { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'noisy', arguments: '{}' } }] }
  return 'done'
}
`
  const workspace = folder.write('w.json', writeWorkspace({ tools, model, input: 'go', settings: { protocol: 'openai', maxSteps: 3, systemPrompt: '' } }))
  const { code, stdout, stderr } = await runTsx(BIN, ['run', workspace, '--json'], { cwd: folder.dir })
  expect(code).toBe(0)
  expect(stdout).not.toContain('CALL-NOISE')
  expect(stdout).not.toContain('LOADED-NOISE')
  const session = readSession(stdout)
  expect(session.ok && session.value.events.at(-1)).toMatchObject({ type: 'loop.stopped', reason: 'final_answer' })
  expect(stderr).toContain('CALL-NOISE')
}, 120_000)

it('a sandbox with full privileges (--trust) that writes garbage to its channel is stopped with a clear error; the CLI goes on', async () => {
  const tools = `import { tool, z } from 'toolstep'
const fs = (process as any).getBuiltinModule('node:fs')
export const garble = tool({ description: '', inputSchema: z.object({}), execute: async () => { fs.writeSync((process as any).channel.fd, 'garbage, not a message\\n'); await new Promise((resolve) => setTimeout(resolve, 5_000)); return 'late' } })
`
  const model = `import type { ModelContext } from 'toolstep'
export default function model({ step, messages }: ModelContext) {
  if (step === 0) return { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'garble', arguments: '{}' } }] }
  return 'done after: ' + String(messages[messages.length - 1]?.content)
}
`
  const workspace = folder.write('w.json', writeWorkspace({ tools, model, input: 'go', settings: { protocol: 'openai', maxSteps: 3, systemPrompt: '' } }))
  const { code, stdout, stderr } = await runTsx(BIN, ['run', workspace, '--trust'], { cwd: folder.dir })
  expect(code).toBe(0)
  expect(stdout).toContain('is not a message to its channel to the CLI')
  expect(stdout).toMatch(/done after: .*stopped/)
  // Node's own report of the unreadable line (which held the channel's token) is not printed.
  expect(stderr).not.toContain('parseChannelMessages')
  expect(`${stdout}${stderr}`).not.toMatch(/"token"/)
}, 120_000)
