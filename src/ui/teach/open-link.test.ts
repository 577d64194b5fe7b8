import { afterEach, describe, expect, it } from 'vitest'
import { findLesson, lessonWorkspace } from '../../lessons/index'
import { createLogImportHost } from '../../sandbox/log-import-host'
import { createNodeSandbox } from '../../sandbox/node-sandbox'
import { createPlayground, type Playground } from '../../store/playground'
import { WORKSPACE_KEY } from '../../store/workspace-store'
import { memoryStorage } from '../../store/storage'
import { inProcessImportWorker } from '../../test/in-process-import-worker'
import { replaceAfterAsking, restorePutAside, usePutAside } from '../example-switch'
import { useToasts } from '../toasts'
import { applyLink, openLinkFragment } from './open-link'
import { encodeShare } from './share-link'
import { createTeachStore } from './teach-store'

const opened: Playground[] = []
afterEach(() => opened.splice(0).forEach((pg) => pg.dispose()))

function playground(storage = memoryStorage()) {
  const pg = createPlayground({ createSandbox: () => createNodeSandbox(), createImportHost: () => createLogImportHost(inProcessImportWorker), storage })
  opened.push(pg)
  return { pg, teach: createTeachStore(storage), storage }
}

const shared = lessonWorkspace(findLesson('fail-endless-loop')!.workspace)
const link = () => encodeShare({ workspace: { ...shared, input: 'Shared question' }, lessonId: 'fail-endless-loop' })

describe('opening a share link', () => {
  it('over an untouched example: shows the code and lesson, says it came from a link, runs nothing', async () => {
    const { pg, teach } = playground()
    expect(await openLinkFragment(pg, teach, await link())).toEqual({ kind: 'opened' })
    expect(pg.currentWorkspace().input).toBe('Shared question')
    expect(pg.currentWorkspace().settings.loop.repeatedCall.action).toBe('warn')
    expect(pg.stores.run.getState().events).toEqual([])
    expect(teach.getState()).toMatchObject({ lessonId: 'fail-endless-loop', fromLink: true, panelOpen: true, pendingLink: null })
  })

  it('over the user\'s own work: asks first and touches nothing until told to', async () => {
    const { pg, teach, storage } = playground()
    pg.stores.workspace.getState().setInput('My own question')
    const savedBefore = storage.entries.get(WORKSPACE_KEY)
    expect(await openLinkFragment(pg, teach, await link())).toEqual({ kind: 'asked' })
    expect(pg.currentWorkspace().input).toBe('My own question')
    expect(storage.entries.get(WORKSPACE_KEY)).toBe(savedBefore)
    const pending = teach.getState().pendingLink
    expect(pending?.payload.workspace.input).toBe('Shared question')
    applyLink(pg, teach, pending!.payload)
    expect(pg.currentWorkspace().input).toBe('Shared question')
    expect(teach.getState().pendingLink).toBeNull()
  })

  it('opened over the user\'s own work, the work is put aside: the toast\'s Undo or Restore brings it back', async () => {
    for (const how of ['undo', 'restore'] as const) {
      const { pg, teach } = playground()
      pg.stores.workspace.getState().setInput('My own question')
      teach.getState().selectLesson('registry-tags')
      expect(await openLinkFragment(pg, teach, await link())).toEqual({ kind: 'asked' })
      const payload = teach.getState().pendingLink!.payload
      replaceAfterAsking(pg, { key: 'share.linkTitle' }, () => applyLink(pg, teach, payload), { undone: () => teach.getState().selectLesson('registry-tags') })
      expect(pg.currentWorkspace().input).toBe('Shared question')
      expect(teach.getState().lessonId).toBe('fail-endless-loop')
      // Kept beyond the toast (the store is persisted under its own key).
      expect(usePutAside.getState().putAside?.workspace).toContain('My own question')
      if (how === 'undo') {
        const toast = useToasts.getState().toasts.at(-1)
        expect(toast?.action).toBeDefined()
        toast!.action!.run()
        expect(teach.getState().lessonId).toBe('registry-tags')
      } else {
        expect(restorePutAside(pg)).toBe(true)
      }
      expect(pg.currentWorkspace().input).toBe('My own question')
      expect(usePutAside.getState().putAside).toBeNull()
      expect(restorePutAside(pg)).toBe(false)
    }
  })

  it('a damaged link says why and changes nothing; no fragment does nothing', async () => {
    const { pg, teach } = playground()
    const before = pg.currentWorkspace()
    const result = await openLinkFragment(pg, teach, '#share=%%%')
    expect(result.kind).toBe('invalid')
    expect(pg.currentWorkspace()).toEqual(before)
    expect(await openLinkFragment(pg, teach, '')).toEqual({ kind: 'none' })
  })
})
