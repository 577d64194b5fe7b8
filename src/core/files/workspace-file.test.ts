import { describe, expect, it } from 'vitest'
import { readWorkspace, writeWorkspace } from './workspace-file'

const workspace = (protocol: string) => ({ tools: 'export {}', model: 'export default () => "hi"', input: 'x', exampleId: 'custom', cases: [], settings: { protocol, maxSteps: 3, systemPrompt: '' } })

describe('workspace file: the wire format', () => {
  it('reads every format of the registry, auto included', () => {
    for (const protocol of ['auto', 'openai', 'pipe', 'harmony']) expect(readWorkspace(writeWorkspace(workspace(protocol))).ok).toBe(true)
  })

  it('refuses a wire format this build does not know, naming the field and the known ids (it ran as "malformed call" every turn)', () => {
    const result = readWorkspace(writeWorkspace(workspace('no-such-protocol')))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error).toContain('settings.protocol')
    expect(result.error).toContain('"openai"')
  })
})
