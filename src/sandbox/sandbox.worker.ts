/**
 * Browser Web Worker entry of the sandbox. Constructed by `browser-sandbox.ts` with
 * `new Worker(new URL('./sandbox.worker.ts', import.meta.url), { type: 'module' })`.
 */
import { createWorkerDispatch } from './worker-dispatch'

const scope = self as unknown as DedicatedWorkerGlobalScope
const dispatch = createWorkerDispatch((message) => scope.postMessage(message))
scope.addEventListener('message', (event: MessageEvent<unknown>) => dispatch(event.data))
