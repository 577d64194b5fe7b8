/** A saved pane layout that cannot be read must not reach react-resizable-panels (it blanked the page). */
import { describe, expect, it } from 'vitest'
import { readableLayout } from './pane-storage'

describe('readableLayout', () => {
  it('keeps a saved layout', () => {
    expect(readableLayout('{"pane-tools":40,"pane-model":60}')).toBe('{"pane-tools":40,"pane-model":60}')
    expect(readableLayout(null)).toBeNull()
  })

  it('drops what the library would throw on or misread: not JSON, null, arrays, other values', () => {
    for (const value of ['x', '', 'null', '[]', '[1,2]', '"a"', '42', '{"a":"x"}', '{"a":null}', '{"a":{"b":1}}', '{"a":1e400}']) expect(readableLayout(value), value).toBeNull()
  })
})
