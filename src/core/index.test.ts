import { describe, expect, it } from 'vitest'
import * as core from './index'
import * as debug from './debug'
import * as endpoint from './endpoint'
import * as evals from './evals'
import * as files from './files'
import * as json from './json'
import * as loop from './loop'
import * as messages from './messages'
import * as narration from './narration'
import * as protocols from './protocols'
import * as tools from './tools'
import * as trace from './trace'
import * as validation from './validation'

// An `export *` whose names clash across folders is dropped silently at run time; this catches it.
describe('core root index', () => {
  it.each(Object.entries({ debug, endpoint, evals, files, json, loop, messages, narration, protocols, tools, trace, validation }))('re-exports every value of core/%s', (_folder, surface) => {
    const missing = Object.keys(surface).filter((name) => (core as Record<string, unknown>)[name] !== (surface as Record<string, unknown>)[name])
    expect(missing).toEqual([])
  })

  it('parses through the root surface', () => {
    const parsed = core.getProtocol('openai')
    expect(parsed?.id).toBe('openai')
    expect(core.readWorkspace('{').ok).toBe(false)
  })
})
