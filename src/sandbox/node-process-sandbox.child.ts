/**
 * Child-process entry of the CLI's sandbox, started by `node-process-sandbox.ts` under Node's
 * permission model. Built to `dist-cli/node-process-sandbox.child.js`; from source it is bundled
 * on the fly (see `childEntry`). The label of the tool call whose code runs goes to fd
 * {@link CALL_LABEL_FD}, a file the host reads even while this process is blocked.
 */
import { syncBuiltinESMExports } from 'node:module'
import traceEvents from 'node:trace_events'
import v8 from 'node:v8'
import { CALL_LABEL_FD, createCallTracker, fdLabelWriter } from './node-call-tracker'
import { serveChildProcess } from './worker-channel'
import { createWorkerDispatch } from './worker-dispatch'

/**
 * Node 20's permission model does not check the files the tracing agent and V8 write by
 * themselves (a trace log, a heap snapshot near the heap limit, both in the working folder), nor
 * V8 flags set at run time (`--allow-natives-syntax` reaches past JavaScript's safety). Under the
 * permission model these functions throw `ERR_ACCESS_DENIED` like the writes it does check;
 * `--trust` (no permission model) keeps them. Done before user code loads, on the exports object
 * `process.getBuiltinModule` returns, and synced to the `node:` ES modules.
 */
function refuseUncheckedWrites(): void {
  if ((process as { permission?: unknown }).permission === undefined) return
  const refuse = (name: string) => () => {
    throw Object.assign(new Error(`${name} is not available in the sandbox`), { code: 'ERR_ACCESS_DENIED', permission: 'FileSystemWrite' })
  }
  const lock = (exports: object, module: string, names: string[]) => {
    for (const name of names) Object.defineProperty(exports, name, { value: refuse(`${module}.${name}()`), writable: false, configurable: false, enumerable: true })
  }
  lock(traceEvents, 'trace_events', ['createTracing'])
  lock(v8, 'v8', ['setHeapSnapshotNearHeapLimit', 'setFlagsFromString'])
  syncBuiltinESMExports()
}

refuseUncheckedWrites()
const track = createCallTracker(fdLabelWriter(CALL_LABEL_FD))
serveChildProcess(process as unknown as Parameters<typeof serveChildProcess>[0], (post) => createWorkerDispatch(post, undefined, { track }))
