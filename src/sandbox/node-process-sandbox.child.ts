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
  // A heap snapshot (a stream in memory, no file) holds every string of the process: the
  // channel's token with them.
  lock(v8, 'v8', ['setHeapSnapshotNearHeapLimit', 'setFlagsFromString', 'getHeapSnapshot'])
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

/** The IPC channel's descriptor, when this process has one. */
function channelDescriptor(): number | undefined {
  const fd = (process as { channel?: { fd?: unknown } }).channel?.fd
  return typeof fd === 'number' && fd >= 0 ? fd : undefined
}

/** The descriptors user code must not touch: the running call's label and the IPC channel. */
function ownDescriptors(): number[] {
  const channel = channelDescriptor()
  return channel === undefined ? [CALL_LABEL_FD] : [CALL_LABEL_FD, channel]
}

/**
 * User code must not write the label of the running call itself: it could blame a sibling for
 * its own hang (and get that sibling retried). Nor the IPC channel's descriptor: a line of
 * garbage there made the CLI's own process throw while reading it. Both descriptors are refused
 * to `node:fs`; the tracker's writer captured `writeSync`, and the IPC channel its handle,
 * before this ran.
 */
function guardLabelFd(): void {
  const exports = fs as unknown as Record<string, (...args: unknown[]) => unknown>
  const own = new Set<unknown>(ownDescriptors())
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

/**
 * `new net.Socket({ fd })` and `new tty.WriteStream(fd)` open a new handle on a descriptor, past
 * `node:fs`: a line of garbage written so to the IPC channel made the CLI's own process throw.
 * The pipe handle's `open` and the TTY stream constructors refuse the sandbox's own descriptors.
 */
function guardOpen(pipePrototype: object, own: readonly unknown[]): void {
  const refused = (what: string, fd: unknown) => Object.assign(new Error(`${what} on the sandbox's own descriptor ${String(fd)} is not allowed`), { code: 'ERR_ACCESS_DENIED' })
  const open = (pipePrototype as { open?: unknown }).open
  if (typeof open === 'function') {
    Object.defineProperty(pipePrototype, 'open', {
      value: function (this: unknown, fd: unknown, ...rest: unknown[]): unknown {
        // Converted once (an object's valueOf could answer one fd to the check, another to open).
        const target = Number(fd)
        if (own.includes(target)) throw refused('Opening a pipe', target)
        return Reflect.apply(open, this, [target, ...rest])
      },
      writable: false,
      configurable: false,
      enumerable: false,
    })
  }
  const tty = process.getBuiltinModule?.('node:tty') as Record<string, unknown> | undefined
  for (const name of ['WriteStream', 'ReadStream']) {
    const Original = tty?.[name]
    if (!tty || typeof Original !== 'function') continue
    const guarded = function (this: unknown, fd: unknown, ...rest: unknown[]): unknown {
      const target = Number(fd)
      if (own.includes(target)) throw refused(`tty.${name}`, target)
      return Reflect.construct(Original, [target, ...rest], new.target ?? Original) as unknown
    }
    guarded.prototype = Original.prototype as unknown
    Object.defineProperty(Original.prototype as object, 'constructor', { value: guarded, writable: false, configurable: false, enumerable: false })
    Object.defineProperty(tty, name, { value: guarded, writable: false, configurable: false, enumerable: true })
  }
}

/** What a stream handle writes and reads with (`LibuvStreamWrap`'s methods, shared by pipes, TTYs and TCP). */
const STREAM_METHODS = ['readStart', 'readStop', 'shutdown', 'writev', 'writeBuffer', 'writeAsciiString', 'writeUtf8String', 'writeUcs2String', 'writeLatin1String'] as const

/**
 * Code could reach the IPC channel's handle (`process._getActiveHandles()`, or the running
 * resource of a `message` listener) and replace its write methods, on it or on the prototype
 * every pipe shares: it then read the channel's token as the sandbox wrote its replies, and
 * forged model answers and tool results. The handle's write methods become its own read-only
 * members, the shared prototype's read-only too, and the active-handle lists are refused.
 */
function lockChannelHandle(): void {
  const internals = process as unknown as { _getActiveHandles?: () => unknown[] }
  const channelFd = channelDescriptor()
  const handles = typeof internals._getActiveHandles === 'function' ? internals._getActiveHandles() : []
  const channel = channelFd === undefined ? undefined : handles.find((handle): handle is Record<string, unknown> => typeof handle === 'object' && handle !== null && (handle as { fd?: unknown }).fd === channelFd && typeof (handle as { writeUtf8String?: unknown }).writeUtf8String === 'function')
  if (channel) {
    guardOpen(Object.getPrototypeOf(channel) as object, ownDescriptors())
    for (let proto: object | null = Object.getPrototypeOf(channel) as object | null; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
      for (const name of STREAM_METHODS) {
        const descriptor = Object.getOwnPropertyDescriptor(proto, name)
        if (descriptor && 'value' in descriptor) Object.defineProperty(proto, name, { value: descriptor.value as unknown, writable: false, configurable: false, enumerable: descriptor.enumerable ?? false })
      }
    }
    for (const name of STREAM_METHODS) {
      const method = channel[name]
      if (typeof method === 'function') Object.defineProperty(channel, name, { value: method, writable: false, configurable: false, enumerable: false })
    }
  }
  for (const name of ['_getActiveHandles', '_getActiveRequests']) {
    Object.defineProperty(process, name, {
      value: () => {
        throw Object.assign(new Error(`process.${name}() is not available in the sandbox: it reaches the channel to Toolstep`), { code: 'ERR_ACCESS_DENIED' })
      },
      writable: false,
      configurable: false,
      enumerable: false,
    })
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
// After `serveChildProcess`: the channel's handle is active (listed) only once something listens.
if ((process as { permission?: unknown }).permission !== undefined) {
  lockChannelHandle()
  syncBuiltinESMExports()
}

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
