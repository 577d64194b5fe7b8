import { describe, expect, it } from 'vitest'
import { writeWorkspace } from '../../core/files/workspace-file'
import { readSession } from '../../core/files/session-file'
import { findExample, type Example } from '../../examples/index'
import { fakeIO } from '../../test/fake-io'
import { runCommand } from './run'

function io(files: Record<string, string>) {
  const { io: fake, stdout: out, stderr: err } = fakeIO(files)
  return { fake, out, err }
}

function workspaceOf(id: string, protocol?: string, tools?: string): string {
  const example = findExample(id) as Example
  return writeWorkspace({
    tools: tools ?? example.tools,
    model: example.model,
    input: example.input,
    settings: { protocol: protocol ?? example.protocol, maxSteps: example.maxSteps ?? 8, systemPrompt: '' },
  })
}

describe('toolstep run', () => {
  it('runs a workspace to final_answer, exit 0, printing each phase and the answer', async () => {
    const { fake, out } = io({ 'w.json': workspaceOf('weather', 'xml-tag') })
    expect(await runCommand(['w.json'], fake)).toBe(0)
    expect(out()).toMatch(/execute\s+Execute · get_weather — ok/)
    expect(out()).toMatch(/Final answer: In Paris it is/)
  })

  it('--json prints a session file that re-imports', async () => {
    const { fake, out } = io({ 'w.json': workspaceOf('weather', 'openai') })
    expect(await runCommand(['w.json', '--json'], fake)).toBe(0)
    const session = readSession(out())
    expect(session.ok).toBe(true)
    if (session.ok) expect(session.value.events.at(-1)).toMatchObject({ type: 'loop.stopped', reason: 'final_answer' })
  })

  it('exits 1 when the loop stops for another reason (max_steps), and --max-steps overrides', async () => {
    const { fake, out } = io({ 'w.json': workspaceOf('never-answers') })
    expect(await runCommand(['w.json', '--max-steps', '2', '--json'], fake)).toBe(1)
    const session = readSession(out())
    expect(session.ok && session.value.events.filter((e) => e.type === 'model.responded')).toHaveLength(2)
  })

  it('exits 2 with the located error when tools.ts does not compile', async () => {
    const { fake, err } = io({ 'w.json': workspaceOf('weather', 'json', "import { tool } from 'toolstep'\nexport const x = tool({ description: 'x',, })\n") })
    expect(await runCommand(['w.json'], fake)).toBe(2)
    expect(err()).toMatch(/tools\.ts:2:\d+/)
  })

  it('exits 2 on usage errors and unreadable or invalid files', async () => {
    const { fake, err } = io({ 'bad.json': '{"format":"toolstep.workspace","version":1}' })
    expect(await runCommand([], fake)).toBe(2)
    expect(await runCommand(['missing.json'], fake)).toBe(2)
    expect(await runCommand(['bad.json'], fake)).toBe(2)
    expect(err()).toMatch(/tools: /)
    expect(await runCommand(['bad.json', '--max-steps', 'x'], fake)).toBe(2)
    expect(await runCommand(['--frobnicate'], fake)).toBe(2)
  })

  it('--approve all|none answers confirmations for dangerous tools', async () => {
    const tools = `import { tool, z } from 'toolstep'
export const delete_file = tool({ description: 'Delete a file.', dangerous: true, inputSchema: z.object({ path: z.string() }), execute: ({ path }) => 'deleted ' + path })
`
    const model = `import type { ModelContext } from 'toolstep'
export default function model({ messages }: ModelContext) {
  const last = messages[messages.length - 1]
  if (last && last.role === 'tool') return { role: 'assistant', content: 'Result: ' + last.content }
  return { role: 'assistant', content: null, tool_calls: [{ id: 'd1', type: 'function', function: { name: 'delete_file', arguments: '{"path":"/tmp/x"}' } }] }
}
`
    const file = writeWorkspace({ tools, model, input: 'delete it', settings: { protocol: 'openai', maxSteps: 4, systemPrompt: '' } })
    const approved = io({ 'w.json': file })
    expect(await runCommand(['w.json', '--approve', 'all'], approved.fake)).toBe(0)
    expect(approved.out()).toContain('Final answer: Result: deleted /tmp/x')
    const denied = io({ 'w.json': file })
    expect(await runCommand(['w.json'], denied.fake)).toBe(0)
    expect(denied.out()).toContain('Final answer: Result: The user declined to run this call.')
    expect(await runCommand(['w.json', '--approve', 'maybe'], denied.fake)).toBe(2)
  })
})
