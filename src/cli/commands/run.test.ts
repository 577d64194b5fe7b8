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
    expect(denied.out()).toContain('Final answer: Result: Error: The user declined to run this call.')
    expect(await runCommand(['w.json', '--approve', 'maybe'], denied.fake)).toBe(2)
    const reasoned = io({ 'w.json': file })
    expect(await runCommand(['w.json', '--deny-reason', 'not on a Friday'], reasoned.fake)).toBe(0)
    expect(reasoned.out()).toContain('Final answer: Result: Error: The user declined to run this call. Reason: not on a Friday')
    const json = io({ 'w.json': file })
    expect(await runCommand(['w.json', '--deny-reason=keep it', '--json'], json.fake)).toBe(0)
    const events = (JSON.parse(json.out()) as { events: { type: string; decisions?: unknown[] }[] }).events
    expect(events.find((event) => event.type === 'confirm.decided')?.decisions).toEqual([{ callId: 'd1', decision: 'deny', reason: 'keep it' }])
    expect(await runCommand(['w.json', '--deny-reason'], denied.fake)).toBe(2)
  })

  it('--break pauses before the matching phase, prints the session so far and exits 3', async () => {
    const { fake, out } = io({ 'w.json': workspaceOf('weather', 'openai') })
    expect(await runCommand(['w.json', '--break', "before execute when call.name == 'calculate'", '--json'], fake)).toBe(3)
    const session = readSession(out())
    expect(session.ok).toBe(true)
    if (!session.ok) return
    const events = session.value.events
    // get_weather ran; calculate was validated but not run.
    expect(events.filter((e) => e.type === 'tool.finished').map((e) => e.type === 'tool.finished' && e.name)).toEqual(['get_weather'])
    expect(events.at(-1)).toMatchObject({ type: 'validate.completed', verdicts: [{ name: 'calculate', ok: true }] })

    const readable = io({ 'w.json': workspaceOf('weather', 'openai') })
    expect(await runCommand(['w.json', '--break', 'at turn 2'], readable.fake)).toBe(3)
    expect(readable.out()).toMatch(/Paused at breakpoint break-1 "at turn 2": before decide/)
    expect(readable.out()).not.toMatch(/Final answer/)
  })

  it('--break that never hits runs to the end; a bad --break is a usage error naming the problem', async () => {
    const { fake, out, err } = io({ 'w.json': workspaceOf('weather', 'openai') })
    expect(await runCommand(['w.json', '--break', "before execute when call.name == 'charge'"], fake)).toBe(0)
    expect(out()).toMatch(/Final answer: In Paris it is/)
    expect(await runCommand(['w.json', '--break', 'after validate when verdicts[.ok == false'], fake)).toBe(2)
    expect(err()).toMatch(/"\[" is not closed/)
    expect(await runCommand(['w.json', '--break'], fake)).toBe(2)
  })

  it('honours the breakpoints saved in the workspace unless --ignore-breakpoints, skipping disabled ones', async () => {
    const workspace = JSON.parse(workspaceOf('weather', 'openai')) as { settings: Record<string, unknown> }
    workspace.settings.breakpoints = [
      { id: 'off', enabled: false, on: { kind: 'before', phase: 'decide' }, condition: '' },
      { id: 'calc', enabled: true, on: { kind: 'event', type: 'tool.finished' }, condition: "call.name == 'calculate'" },
    ]
    const text = JSON.stringify(workspace)
    const saved = io({ 'w.json': text })
    expect(await runCommand(['w.json'], saved.fake)).toBe(3)
    expect(saved.out()).toMatch(/Paused at breakpoint calc "on tool\.finished when call\.name == 'calculate'": after tool\.finished #\d+ \(call calculate/)
    const ignored = io({ 'w.json': text })
    expect(await runCommand(['w.json', '--ignore-breakpoints'], ignored.fake)).toBe(0)
  })
})

describe('toolstep run: the sandbox boundary', () => {
  const workspaceWith = (tools: string, calls: string) =>
    writeWorkspace({
      tools,
      model: `import { callTools, type ModelContext } from 'toolstep'
export default (ctx: ModelContext) => ctx.step === 0 ? callTools(ctx.protocol, ${calls}) : 'done: ' + ctx.messages.filter((m) => m.role === 'tool').map((m) => m.content).join(' | ')`,
      input: 'go',
      settings: { protocol: 'openai', maxSteps: 4, systemPrompt: '' },
    })

  it('names each tool of a long turn once on its parse line, with how many times it was called', async () => {
    const tools = `import { tool, z } from 'toolstep'
export const ping = tool({ description: '', inputSchema: z.object({}), execute: () => 'pong' })
export const echo = tool({ description: '', inputSchema: z.object({}), execute: () => 'echo' })`
    const calls = `[{ name: 'echo', arguments: {} }, ...Array.from({ length: 59 }, () => ({ name: 'ping', arguments: {} }))]`
    const { fake, out } = io({ 'w.json': workspaceWith(tools, calls) })
    // 60 calls of one turn are a repeated_call stop (exit 1): only the parse line matters here.
    await runCommand(['w.json'], fake)
    const parseLine = out().split('\n').find((line) => /\bparse\b/.test(line) && line.includes('60 calls')) ?? ''
    expect(parseLine).toMatch(/60 calls: echo, ping ×59$/)
    expect(parseLine.length).toBeLessThan(120)
  })

  it('refuses file writes and child processes from workspace code with a clear permission error', async () => {
    const tools = `import { tool, z } from 'toolstep'
const fs = (process as any).getBuiltinModule?.('fs') ?? require('fs')
export const write_file = tool({ description: '', inputSchema: z.object({}), execute: () => { fs.writeFileSync('/tmp/toolstep-pwned-by-workspace.txt', 'x'); return 'written' } })
export const run_id = tool({ description: '', inputSchema: z.object({}), execute: () => String((process as any).getBuiltinModule('child_process').execSync('id')) })`
    const { fake, out } = io({ 'w.json': workspaceWith(tools, `[{ name: 'write_file', arguments: {} }, { name: 'run_id', arguments: {} }]`) })
    expect(await runCommand(['w.json'], fake)).toBe(0)
    expect(out()).toMatch(/Permission denied \(FileSystemWrite: \/tmp\/toolstep-pwned-by-workspace\.txt\)/)
    expect(out()).toMatch(/Permission denied \(ChildProcess/)
    expect(out()).not.toMatch(/uid=/)
    const { existsSync } = await import('node:fs')
    expect(existsSync('/tmp/toolstep-pwned-by-workspace.txt')).toBe(false)
  })

  it('ends only the call that ran out of memory, as the browser does: the error goes back to the model and the run goes on in a fresh sandbox', async () => {
    const tools = `import { tool, z } from 'toolstep'
// Top-level state: the fresh sandbox must have it again.
const table = new Map([['paris', '18 degrees']])
export const hoard = tool({ description: '', inputSchema: z.object({}), timeoutMs: 60000, execute: () => { const a: number[][] = []; for (;;) a.push(new Array(1e6).fill(Math.random())) } })
export const lookup = tool({ description: '', inputSchema: z.object({}), execute: () => table.get('paris') })`
    const model = `import { callTools, type ModelContext } from 'toolstep'
export default (ctx: ModelContext) => {
  const results = ctx.messages.filter((m) => m.role === 'tool').map((m) => String(m.content))
  if (ctx.step === 0) return callTools(ctx.protocol, [{ name: 'hoard', arguments: {} }])
  if (ctx.step === 1) return callTools(ctx.protocol, [{ name: 'lookup', arguments: {} }])
  return 'done: ' + results.join(' | ')
}`
    const workspace = writeWorkspace({ tools, model, input: 'go', settings: { protocol: 'openai', maxSteps: 4, systemPrompt: '' } })
    const { fake, out, err } = io({ 'w.json': workspace })
    // The error is written back like any other and the run goes on, but the exit is non-zero.
    expect(await runCommand(['w.json', '--max-memory-mb', '64', '--json'], fake)).toBe(1)
    const message = 'tools.ts ran out of memory (limit 64 MB) while running tool "hoard" and was stopped.'
    expect(err()).toContain(`toolstep run: ${message}`)
    const session = readSession(out())
    if (!session.ok) throw new Error(session.error)
    const finished = session.value.events.filter((event) => event.type === 'tool.finished')
    expect(finished).toMatchObject([
      { name: 'hoard', error: message },
      { name: 'lookup', result: '18 degrees' },
    ])
    expect(session.value.events.at(-1)).toMatchObject({ type: 'loop.stopped', reason: 'final_answer' })
  })

  it('reports a top-level memory bomb as a load error (exit 2) and rejects a bad --max-memory-mb', async () => {
    const { fake, err } = io({ 'w.json': workspaceWith('const a: number[][] = []; for (;;) a.push(new Array(1e6).fill(1.5))', '[]') })
    expect(await runCommand(['w.json', '--max-memory-mb=64'], fake)).toBe(2)
    expect(err()).toContain('toolstep run: tools.ts ran out of memory (limit 64 MB) while running its top-level code')
    // Said once, as the load error (the run stops: no sandbox is restarted).
    expect(err().split('ran out of memory')).toHaveLength(2)
    expect(err()).not.toContain('The sandbox was restarted')
    const bad = io({ 'w.json': workspaceWith('', '[]') })
    expect(await runCommand(['w.json', '--max-memory-mb', 'lots'], bad.fake)).toBe(2)
    expect(bad.err()).toContain('--max-memory-mb takes a whole number')
    // Numbers Number() reads but nobody means: exponent, hex, padded, beyond any machine.
    for (const [flag, given] of [['--max-memory-mb', '1e3'], ['--max-memory-mb', '0x40'], ['--max-memory-mb', ' 64'], ['--max-memory-mb', '99999999'], ['--max-steps', '1e3'], ['--max-steps', '99999999999999999999'], ['--timeout', '1.5e3']] as const) {
      const rejected = io({ 'w.json': workspaceWith('', '[]') })
      expect(await runCommand(['w.json', flag, given], rejected.fake), `${flag} ${given}`).toBe(2)
      expect(rejected.err()).toContain(`${flag} takes a whole number`)
    }
  })
})
