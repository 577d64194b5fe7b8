import { describe, expect, it } from 'vitest'
import { readSession, writeSession } from './session-file'
import { readWorkspace, writeWorkspace } from './workspace-file'

const workspace = writeWorkspace({ tools: 'export {}', model: 'export default () => "hi"', input: 'Hello', settings: { protocol: 'json', maxSteps: 4, systemPrompt: '' } })

describe('workspace and session files saved with a byte order mark', () => {
  it('read the same as without one', () => {
    const plain = readWorkspace(workspace)
    expect(plain.ok).toBe(true)
    expect(readWorkspace(`\uFEFF${workspace}`)).toEqual(plain)
    const parsed = plain.ok ? plain.value : null
    const session = writeSession(parsed, [])
    expect(readSession(`\uFEFF${session}`)).toEqual(readSession(session))
    expect(readSession(`\uFEFF${session}`).ok).toBe(true)
  })

  it('still say why text is not JSON', () => {
    expect(readWorkspace('\uFEFF{"format":')).toMatchObject({ ok: false, error: expect.stringMatching(/^Not valid JSON: /) })
    expect(readSession('')).toMatchObject({ ok: false, error: 'The file is empty.' })
  })
})
