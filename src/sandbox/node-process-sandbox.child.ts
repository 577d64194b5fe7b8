/**
 * Child-process entry of the CLI's sandbox, started by `node-process-sandbox.ts` under Node's
 * permission model. Built to `dist-cli/node-process-sandbox.child.js`; from source it is bundled
 * on the fly (see `childEntry`). The label of the tool call whose code runs goes to fd
 * {@link CALL_LABEL_FD}, a file the host reads even while this process is blocked.
 */
import { CALL_LABEL_FD, createCallTracker, fdLabelWriter } from './node-call-tracker'
import { serveChildProcess } from './worker-channel'
import { createWorkerDispatch } from './worker-dispatch'

const track = createCallTracker(fdLabelWriter(CALL_LABEL_FD))
serveChildProcess(process as unknown as Parameters<typeof serveChildProcess>[0], (post) => createWorkerDispatch(post, undefined, { track }))
