import { describe, expect, it } from 'vitest'
import { createCrashGuard, PENDING_KEY } from './crash-guard'
import { isQuotaError, memoryStorage, type KeyValueStorage } from './storage'
import { createWorkspaceStore, currentWorkspace, UNREADABLE_WORKSPACE_KEY, WORKSPACE_KEY } from './workspace-store'

/** A storage that is full: every write throws the browser's `QuotaExceededError` until `free()`. */
function fullStorage(initial: Record<string, string> = {}): KeyValueStorage & { free(): void; entries: Map<string, string> } {
  const inner = memoryStorage(initial)
  let full = true
  return {
    entries: inner.entries,
    getItem: inner.getItem,
    removeItem: inner.removeItem,
    setItem(key, value) {
      if (full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
      inner.setItem(key, value)
    },
    free: () => void (full = false),
  }
}

const saved = (storage: KeyValueStorage) => JSON.parse(storage.getItem(WORKSPACE_KEY)!) as { state: { tools: string }; version: number }

describe('workspace store: saving', () => {
  it('saves every edit, in the envelope earlier versions wrote, and reads it back', () => {
    const storage = memoryStorage()
    const first = createWorkspaceStore(storage)
    first.getState().setTools('// mine')
    first.getState().setLoop({ execution: 'sequential' })
    expect(saved(storage)).toMatchObject({ state: { tools: '// mine' }, version: 1 })
    const again = createWorkspaceStore(storage)
    expect(again.getState()).toMatchObject({ tools: '// mine', restoreProblem: null, saveError: null })
    expect(again.getState().settings.loop.execution).toBe('sequential')
    expect(currentWorkspace(again)).toMatchObject({ format: 'toolstep.workspace', version: 1, tools: '// mine' })
  })

  it('with storage full, an edit does not throw, stays in memory and says it is not saved; the next save that fits clears it', () => {
    const storage = fullStorage()
    const store = createWorkspaceStore(storage)
    expect(() => store.getState().setTools('// typed while full')).not.toThrow()
    expect(store.getState().tools).toBe('// typed while full')
    expect(store.getState().saveError).toMatchObject({ quota: true })
    expect(store.getState().saveError?.message).toMatch(/storage .* is full.*export the workspace/i)
    expect(storage.getItem(WORKSPACE_KEY)).toBeNull()
    storage.free()
    store.getState().setModel('// and then')
    expect(store.getState().saveError).toBeNull()
    expect(saved(storage).state.tools).toBe('// typed while full')
  })

  it('names other save failures too', () => {
    const storage: KeyValueStorage = { ...memoryStorage(), setItem: () => { throw new Error('disabled') } }
    const store = createWorkspaceStore(storage)
    store.getState().setInput('hi')
    expect(store.getState().saveError).toMatchObject({ quota: false })
    expect(store.getState().saveError?.message).toContain('disabled')
  })

  it('recognises the quota error names of Chromium and Firefox only', () => {
    expect(isQuotaError(new DOMException('x', 'QuotaExceededError'))).toBe(true)
    expect(isQuotaError({ name: 'NS_ERROR_DOM_QUOTA_REACHED' })).toBe(true)
    expect(isQuotaError(new Error('QuotaExceededError'))).toBe(false)
    expect(isQuotaError(null)).toBe(false)
  })
})

describe('workspace store: a saved workspace that cannot be read', () => {
  it('says the unreadable text was kept in storage only when it was (a full storage keeps no copy)', () => {
    const text = '{"state": {"tools": "// my work'
    expect(createWorkspaceStore(memoryStorage({ [WORKSPACE_KEY]: text })).getState().restoreProblem).toMatchObject({ text, keptInStorage: true })
    const full = memoryStorage({ [WORKSPACE_KEY]: text })
    full.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError')
    }
    expect(createWorkspaceStore(full).getState().restoreProblem).toMatchObject({ text, keptInStorage: false })
  })

  it('resets everything when the text is not JSON, says so, and keeps the text to copy', () => {
    const text = '{"state": {"tools": "// my work'
    const storage = memoryStorage({ [WORKSPACE_KEY]: text })
    const store = createWorkspaceStore(storage)
    const problem = store.getState().restoreProblem!
    expect(problem.reset).toEqual(['everything'])
    expect(problem.reason).toMatch(/not valid JSON/)
    expect(problem.text).toBe(text)
    expect(storage.getItem(UNREADABLE_WORKSPACE_KEY)).toBe(text)
    // The defaults are in use, and the first edit does not lose the kept copy.
    store.getState().setTools('// new')
    expect(storage.getItem(UNREADABLE_WORKSPACE_KEY)).toBe(text)
    store.getState().dismissRestoreProblem()
    expect(store.getState().restoreProblem).toBeNull()
  })

  it('keeps the fields that are readable and names the ones that were reset', () => {
    const text = JSON.stringify({ state: { tools: '// kept', model: 42, input: 'hello', settings: { protocol: '', maxSteps: 'many' }, exampleId: 'weather' }, version: 1 })
    const store = createWorkspaceStore(memoryStorage({ [WORKSPACE_KEY]: text }))
    expect(store.getState()).toMatchObject({ tools: '// kept', input: 'hello' })
    expect(typeof store.getState().model).toBe('string')
    expect(store.getState().restoreProblem).toMatchObject({ reset: ['model.ts', 'settings'], text })
  })

  it('a wire format this build does not know resets the settings and says so (it was kept, shown as Auto-detect, and failed every turn)', () => {
    const text = JSON.stringify({ state: { tools: '// kept', model: '// kept too', input: 'hi', settings: { protocol: 'no-such-protocol', maxSteps: 8 }, exampleId: 'weather' }, version: 1 })
    const store = createWorkspaceStore(memoryStorage({ [WORKSPACE_KEY]: text }))
    expect(store.getState()).toMatchObject({ tools: '// kept', model: '// kept too' })
    expect(store.getState().settings.protocol).not.toBe('no-such-protocol')
    expect(store.getState().restoreProblem).toMatchObject({ reset: ['settings'], text })
  })

  it('resets everything when the JSON is not a saved workspace', () => {
    const store = createWorkspaceStore(memoryStorage({ [WORKSPACE_KEY]: '[1, 2]' }))
    expect(store.getState().restoreProblem).toMatchObject({ reset: ['everything'], text: '[1, 2]' })
  })

  it('starts clean when nothing was saved or storage cannot be read', () => {
    expect(createWorkspaceStore(memoryStorage()).getState().restoreProblem).toBeNull()
    const throwing: KeyValueStorage = { getItem: () => { throw new Error('denied') }, setItem: () => {}, removeItem: () => {} }
    expect(createWorkspaceStore(throwing).getState().restoreProblem).toBeNull()
  })
})

describe('crash guard', () => {
  it('keeps the marker while any work is in flight and names a run over a check', () => {
    const storage = memoryStorage()
    const guard = createCrashGuard(storage, () => new Date(0))
    expect(guard.interrupted).toBeNull()
    const endCheck = guard.begin('check')
    const endRun = guard.begin('run')
    expect(createCrashGuard(storage).interrupted).toEqual({ kind: 'run', since: '1970-01-01T00:00:00.000Z' })
    endRun()
    endRun()
    expect(JSON.parse(storage.getItem(PENDING_KEY)!).kinds).toEqual(['check'])
    endCheck()
    expect(storage.getItem(PENDING_KEY)).toBeNull()
  })

  it('the end of its work removes only the marker this page wrote, not one another page wrote meanwhile', () => {
    const storage = memoryStorage()
    const guard = createCrashGuard(storage)
    const end = guard.begin('check')
    // Another tab of the app crashed during a run meanwhile.
    const other = JSON.stringify({ kinds: ['run'], since: 'x' })
    storage.setItem(PENDING_KEY, other)
    end()
    expect(storage.getItem(PENDING_KEY)).toBe(other)
  })

  it('a full storage loses only the guard', () => {
    const guard = createCrashGuard(fullStorage())
    expect(() => guard.begin('run')()).not.toThrow()
  })
})
