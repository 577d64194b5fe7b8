/**
 * The log-import worker run in-process, for tests in Node: messages cross a structured clone
 * each way and are delivered on a later task, as they would be between threads.
 */
import type { LogImportEndpoint } from '../sandbox/log-import-host'
import type { HostToLogImport, LogImportToHost } from '../sandbox/log-import-protocol'
import { createLogImportDispatch } from '../sandbox/log-import-runtime'

/** A {@link LogImportEndpoint} backed by the real worker dispatch; `posted` records every reply. */
export function inProcessImportWorker(): LogImportEndpoint & { posted: LogImportToHost[] } {
  const listeners: ((event: MessageEvent<unknown>) => void)[] = []
  const posted: LogImportToHost[] = []
  let alive = true
  const dispatch = createLogImportDispatch((message) => {
    posted.push(message)
    const copy = structuredClone(message)
    setTimeout(() => alive && listeners.forEach((listener) => listener({ data: copy } as MessageEvent<unknown>)), 0)
  })
  return {
    posted,
    postMessage: (message: HostToLogImport) => setTimeout(() => alive && dispatch(message), 0),
    addEventListener: (type: string, listener: (event: never) => void) => {
      if (type === 'message') listeners.push(listener as (event: MessageEvent<unknown>) => void)
    },
    terminate: () => {
      alive = false
    },
  }
}
