/**
 * Child-process entry of the CLI's sandbox, started by `node-process-sandbox.ts` under Node's
 * permission model. Built to `dist-cli/node-process-sandbox.child.js`; from source it is bundled
 * on the fly (see `childEntry`). The label of the tool call whose code runs goes to fd
 * {@link CALL_LABEL_FD}, a file the host reads even while this process is blocked.
 */
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import os from 'node:os'
import traceEvents from 'node:trace_events'
import v8 from 'node:v8'
import { RECEIVED_LABEL } from './protocol'
import { CALL_LABEL_FD, createCallTracker, fdLabelWriter } from './node-call-tracker'
import { capLogs } from './node-log-cap'
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
  guardLabelFd()
  refuseOtherProcesses()
  syncBuiltinESMExports()
}

/**
 * The permission model does not check signals or priorities: `process.kill(process.ppid, 'SIGSTOP')`
 * froze the CLI itself, and any process of the user could be killed. Only this process may be
 * signalled (a tool ending its own sandbox is reported as such by the host).
 */
function refuseOtherProcesses(): void {
  const own = process.pid
  const refused = (what: string) => Object.assign(new Error(`${what} on another process is not allowed in the sandbox`), { code: 'ERR_ACCESS_DENIED', permission: 'ChildProcess' })
  const kill = process.kill.bind(process)
  Object.defineProperty(process, 'kill', {
    value: (pid: number, signal?: string | number) => {
      // Converted once: an object whose valueOf answers this pid to the check and another to
      // process.kill's own conversion must not get past.
      const target = Number(pid)
      if (target !== own) throw refused('process.kill()')
      return kill(target, signal)
    },
    writable: false,
    configurable: false,
    enumerable: true,
  })
  const setPriority = os.setPriority
  Object.defineProperty(os, 'setPriority', {
    value: (...args: [number, number] | [number]) => {
      if (args.length < 2) return Reflect.apply(setPriority, os, args)
      const target = Number(args[0])
      if (target !== own && target !== 0) throw refused('os.setPriority()')
      return Reflect.apply(setPriority, os, [target, args[1]])
    },
    writable: false,
    configurable: false,
    enumerable: true,
  })
}

/**
 * The functions of `node:fs` that take a file descriptor first (streams use these too).
 * Writes to an open descriptor are not checked by the permission model.
 */
const FD_FUNCTIONS = [
  'write', 'writeSync', 'writev', 'writevSync', 'read', 'readSync', 'readv', 'readvSync',
  'writeFile', 'writeFileSync', 'appendFile', 'appendFileSync', 'readFile', 'readFileSync',
  'ftruncate', 'ftruncateSync', 'close', 'closeSync', 'fsync', 'fsyncSync', 'fdatasync', 'fdatasyncSync',
  'fchmod', 'fchmodSync', 'fchown', 'fchownSync', 'futimes', 'futimesSync', 'fstat', 'fstatSync',
] as const

/**
 * User code must not write the label of the running call itself: it could blame a sibling for
 * its own hang (and get that sibling retried). Nor the IPC channel's descriptor: a line of
 * garbage there made the CLI's own process throw while reading it. Both descriptors are refused
 * to `node:fs`; the tracker's writer captured `writeSync`, and the IPC channel its handle,
 * before this ran.
 */
function guardLabelFd(): void {
  const exports = fs as unknown as Record<string, (...args: unknown[]) => unknown>
  const channelFd = (process as { channel?: { fd?: unknown } }).channel?.fd
  const own = new Set<unknown>([CALL_LABEL_FD, ...(typeof channelFd === 'number' && channelFd >= 0 ? [channelFd] : [])])
  for (const name of FD_FUNCTIONS) {
    const original = exports[name]
    if (typeof original !== 'function') continue
    const guarded = function (this: unknown, fd: unknown, ...rest: unknown[]): unknown {
      if (own.has(fd)) throw Object.assign(new Error(`fs.${name}() on the sandbox's own descriptor ${String(fd)} is not allowed`), { code: 'ERR_ACCESS_DENIED', permission: 'FileSystemWrite' })
      return Reflect.apply(original, this, [fd, ...rest])
    }
    Object.defineProperty(exports, name, { value: guarded, writable: false, configurable: false, enumerable: true })
  }
}

// The tracker's writer first: it keeps the real `writeSync` for the label descriptor.
const track = createCallTracker(fdLabelWriter(CALL_LABEL_FD))
refuseUncheckedWrites()
// Each request from the host gets its own budget of printed output (see node-log-cap.ts).
const logs = capLogs([process.stdout, process.stderr])
serveChildProcess(process as unknown as Parameters<typeof serveChildProcess>[0], (post) => {
  const dispatch = createWorkerDispatch(post, undefined, { track })
  return (data) => {
    logs.nextRequest()
    // Read by the host when a request times out: taken in, or never reached (see RECEIVED_LABEL).
    const requestId = typeof data === 'object' && data !== null ? (data as { requestId?: unknown }).requestId : undefined
    if (typeof requestId === 'string') track.mark(`${RECEIVED_LABEL}${requestId}`)
    dispatch(data)
  }
})
hideChannel()

/**
 * Only the sandbox uses the IPC channel to the CLI: `serveChildProcess` took its send function
 * above, so user code gets none (a `process.send()` of Node's own handle messages, or a
 * `process.disconnect()`, printed an internal assertion's stack). `process.channel` stays, as
 * Node's own send reads it; `_disconnect` too, which Node calls when the CLI closes the channel.
 */
function hideChannel(): void {
  const refuse = (name: string) => () => {
    throw Object.assign(new Error(`${name} is not available in the sandbox: the IPC channel belongs to Toolstep`), { code: 'ERR_ACCESS_DENIED' })
  }
  for (const name of ['send', '_send', 'disconnect']) {
    Object.defineProperty(process, name, { value: refuse(`process.${name}()`), writable: false, configurable: false, enumerable: false })
  }
}
