/**
 * worker_threads entry of the sandbox, started by `node-sandbox.ts`. Built to
 * `dist-cli/node-sandbox.worker.js` for the CLI; run from source through tsx in tests. Requests
 * arrive on the private port the host transfers first (see `worker-channel.ts`).
 */
import { parentPort } from 'node:worker_threads'
import { serveNodeWorker } from './worker-channel'
import { createWorkerDispatch } from './worker-dispatch'

if (!parentPort) throw new Error('node-sandbox.worker must be started as a worker thread.')
serveNodeWorker(parentPort, (post) => createWorkerDispatch(post))
