/**
 * Browser Web Worker entry of the sandbox. Constructed by `browser-sandbox.ts` with
 * `new Worker(new URL('./sandbox.worker.ts', import.meta.url), { type: 'module' })`; requests
 * arrive on the private port the host transfers first (see `worker-channel.ts`).
 */
import { serveBrowserWorker } from './worker-channel'
import { createWorkerDispatch } from './worker-dispatch'

serveBrowserWorker(self as unknown as DedicatedWorkerGlobalScope, (post) => createWorkerDispatch(post))
