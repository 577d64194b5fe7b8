/**
 * Browser Web Worker entry of the log importer. Constructed by `log-import-host.ts` with
 * `new Worker(new URL('./log-import.worker.ts', import.meta.url), { type: 'module' })`.
 */
import { createLogImportDispatch } from './log-import-runtime'

const scope = self as unknown as DedicatedWorkerGlobalScope
const dispatch = createLogImportDispatch((message) => scope.postMessage(message))
scope.addEventListener('message', (event: MessageEvent<unknown>) => dispatch(event.data))
