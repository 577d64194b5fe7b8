/**
 * worker_threads entry of the sandbox, started by `node-sandbox.ts`. Built to
 * `dist-cli/node-sandbox.worker.js` for the CLI; run from a bundle of its source in tests (node-bundle-source.ts). Requests
 * arrive on the private port the host transfers first (see `worker-channel.ts`); the handshake
 * also carries the shared buffer where the label of the running tool call is kept.
 */
import { parentPort } from 'node:worker_threads'
import { createCallTracker, sharedLabelWriter } from './node-call-tracker'
import { serveNodeWorker } from './worker-channel'
import { createWorkerDispatch } from './worker-dispatch'

if (!parentPort) throw new Error('node-sandbox.worker must be started as a worker thread.')
serveNodeWorker(parentPort, (post, hello) => {
  const labels = hello['labels']
  const track = labels instanceof SharedArrayBuffer ? createCallTracker(sharedLabelWriter(labels)) : undefined
  return createWorkerDispatch(post, undefined, track ? { track } : {})
})
