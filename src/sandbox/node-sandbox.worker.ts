/**
 * worker_threads entry of the sandbox, started by `node-sandbox.ts`. Built to
 * `dist-cli/node-sandbox.worker.js` for the CLI; run from source through tsx in tests.
 */
import { parentPort } from 'node:worker_threads'
import { createWorkerDispatch } from './worker-dispatch'

const port = parentPort
if (!port) throw new Error('node-sandbox.worker must be started as a worker thread.')
const dispatch = createWorkerDispatch((message) => port.postMessage(message))
port.on('message', (data: unknown) => dispatch(data))
