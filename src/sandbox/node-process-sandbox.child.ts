/**
 * Child-process entry of the CLI's sandbox, started by `node-process-sandbox.ts` under Node's
 * permission model. Built to `dist-cli/node-process-sandbox.child.js`; from source it is loaded by
 * `node-process-sandbox.boot.cjs`.
 */
import { serveChildProcess } from './worker-channel'
import { createWorkerDispatch } from './worker-dispatch'

serveChildProcess(process as unknown as Parameters<typeof serveChildProcess>[0], (post) => createWorkerDispatch(post))
