import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CAPTURE_ANSWER, captureWorkspace } from '../../test/capture-workspace'
import { captureReply, startChatServer, type ChatServer } from '../../test/chat-server'
import { fakeIO } from '../../test/fake-io'
import { exportFolder, runTsx, runVitest } from '../../test/run-export'
import { exportCommand } from './export'
import { runCommand } from './run'

let server: ChatServer
let folder: ReturnType<typeof exportFolder>
beforeEach(async () => {
  server = await startChatServer()
  folder = exportFolder()
})
afterEach(async () => {
  folder.remove()
  await server.close()
})

describe('toolstep export-code / export-test', () => {
  it('export-code writes a program that reaches the same final answer as toolstep run', async () => {
    const replies = [captureReply('openai-chat-parallel-tools.1.response.json'), captureReply('openai-chat-parallel-tools.2.response.json')]
    server.enqueue(...replies)
    const ran = fakeIO({ 'w.json': captureWorkspace() })
    expect(await runCommand(['w.json', '--endpoint', server.baseUrl, '--model', 'gpt-4o-mini'], ran.io)).toBe(0)
    expect(ran.stdout()).toContain(`Final answer: ${CAPTURE_ANSWER}`)

    const { io, stdout } = fakeIO({ 'w.json': captureWorkspace() })
    expect(await exportCommand('export-code', ['w.json', '--endpoint', server.baseUrl, '--model', 'gpt-4o-mini'], io)).toBe(0)
    const file = folder.write('loop.ts', stdout())
    server.enqueue(...replies)
    const program = await runTsx(file, [], { cwd: folder.dir })
    expect(program.code).toBe(0)
    expect(program.stdout).toContain(`final answer: ${CAPTURE_ANSWER}`)
  })

  it('export-test turns a session file of toolstep run into a passing Vitest test', async () => {
    server.enqueue(captureReply('openai-chat-parallel-tools.1.response.json'), captureReply('openai-chat-parallel-tools.2.response.json'))
    const ran = fakeIO({ 'w.json': captureWorkspace() })
    await runCommand(['w.json', '--endpoint', server.baseUrl, '--model', 'gpt-4o-mini', '--json'], ran.io)
    const { io, written } = fakeIO({ 's.json': ran.stdout() })
    expect(await exportCommand('export-test', ['s.json', '-o', 'out.test.ts'], io)).toBe(0)
    folder.write('session.test.ts', written['out.test.ts'] ?? '')
    const result = await runVitest(folder.dir)
    expect(result.stdout + result.stderr).toMatch(/1 passed/)
  }, 60_000)

  it('usage and input errors exit 2 with a message', async () => {
    const { io, stderr } = fakeIO({ 'bad.json': '{}', 'w.json': captureWorkspace() })
    expect(await exportCommand('export-code', [], io)).toBe(2)
    expect(await exportCommand('export-code', ['bad.json'], io)).toBe(2)
    expect(await exportCommand('export-test', ['w.json'], io)).toBe(2)
    expect(await exportCommand('export-code', ['w.json', '--model'], io)).toBe(2)
    expect(await exportCommand('export-code', ['w.json', '--endpoint', 'localhost:11434'], io)).toBe(2)
    expect(stderr()).toContain('"localhost:11434" is not an http:// or https:// URL')
    expect(stderr()).toContain('missing WORKSPACE.json')
    expect(stderr()).toContain('--model takes a value')
  })

  it('a workspace given to export-test, or a session given to export-code, is named as such with the command to use', async () => {
    const session = '{"format":"toolstep.session","version":1,"events":[]}'
    const { io, stderr } = fakeIO({ 'w.json': captureWorkspace(), 's.json': session })
    expect(await exportCommand('export-test', ['w.json'], io)).toBe(2)
    expect(stderr()).toContain('w.json is a workspace, not a session: run it with "toolstep run w.json --json > session.json"')
    expect(await exportCommand('export-code', ['s.json'], io)).toBe(2)
    expect(stderr()).toContain('s.json is a session, not a workspace: export-code takes a workspace')
  })
})
