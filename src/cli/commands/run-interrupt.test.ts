import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileURLToPath } from 'node:url'
import { readSession } from '../../core/files/session-file'
import { captureWorkspace } from '../../test/capture-workspace'
import { startChatServer, type ChatServer } from '../../test/chat-server'
import { exportFolder, startTsx } from '../../test/run-export'

const BIN = fileURLToPath(new URL('../bin.ts', import.meta.url))

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

/**
 * Runs `toolstep run` in a child process against a server that never answers, and presses Ctrl-C
 * once the request is in and the server has written what it sends before stalling. Waits on those
 * events, not on delays, and stops waiting if the CLI ends first (its output then says why).
 */
async function interrupted(args: string[], before?: string[]) {
  const asked = server.requests.length
  server.enqueue({ kind: 'hang', sendHeaders: true, ...(before ? { before } : {}) })
  const workspace = folder.write('w.json', captureWorkspace())
  const { child, finished } = startTsx(BIN, ['run', workspace, '--endpoint', server.baseUrl, '--model', 'slow-model', '--stream', ...args], { cwd: folder.dir })
  const endedEarly = await Promise.race([server.answered(asked + 1).then(() => false), finished.then(() => true)])
  if (endedEarly) throw new Error(`toolstep run ended before its request was answered:\n${(await finished).stderr}`)
  // What the server wrote before the stall is in the socket; let the CLI's loop take it in
  // (a read, not a timing: nothing is asserted about how long it takes).
  if (before) await new Promise((resolve) => setTimeout(resolve, 500))
  const sent = child.kill('SIGINT')
  return { sent, ...(await finished) }
}

describe('toolstep run --endpoint, Ctrl-C', () => {
  it('cancels the request in flight, prints the session so far and exits 130', async () => {
    const { sent, code, stdout, stderr } = await interrupted([])
    expect(sent).toBe(true)
    expect(code).toBe(130)
    expect(stdout).toMatch(/^ +0 +start +Start/m)
    expect(stdout).toMatch(/stop +Stop — aborted/)
    expect(stderr).toContain('stopped with Ctrl-C')
  }, 120_000)

  it('keeps what a stream had received before Ctrl-C in the stop', async () => {
    const chunk = JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'slow-model', choices: [{ index: 0, delta: { role: 'assistant', content: 'The weather in Par' }, finish_reason: null }] })
    const { code, stderr } = await interrupted([], [chunk])
    expect(code).toBe(130)
    expect(stderr).toContain('The model had sent so far: The weather in Par')
    const json = await interrupted(['--json'], [chunk])
    const session = readSession(json.stdout)
    expect(session.ok && session.value.events.at(-1)).toMatchObject({ type: 'loop.stopped', reason: 'aborted', detail: expect.stringContaining('Received so far: The weather in Par') })
  }, 120_000)

  it('with --json, stdout is the session file so far, ending in loop.stopped aborted', async () => {
    const { code, stdout } = await interrupted(['--json'])
    expect(code).toBe(130)
    const session = readSession(stdout)
    expect(session.ok).toBe(true)
    if (!session.ok) return
    expect(session.value.events.at(-1)).toMatchObject({ type: 'loop.stopped', reason: 'aborted' })
    expect(session.value.events.some((e) => e.type === 'model.responded')).toBe(false)
  }, 120_000)
})
