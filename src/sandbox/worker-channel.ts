/**
 * The private channel between a sandbox host and its worker. User code in the worker can reach
 * the worker's global channel (`self.postMessage`, `parentPort`), so replies there could be
 * forged. Instead the host creates a `MessageChannel` and transfers one port in its first
 * message, before any user code has loaded; the worker keeps that port only in the closures
 * below and stops listening on the global channel. The host listens only on its own port.
 *
 * The functions used to read and post on the port are captured at the handshake, so user code
 * that later patches `MessagePort.prototype.postMessage` or the `MessageEvent.prototype.data`
 * getter never sees the port (which it could otherwise use to post).
 */

/** `type` of the handshake message that carries the port (not part of the request protocol). */
export const CONNECT_MESSAGE = 'toolstep-connect'

/**
 * Makes the message handler once the channel is up; `post` sends to the host over the private
 * port, and `hello` is the handshake message (it may carry settings, e.g. `memoryLimitMb`).
 */
export type MakeDispatch = (post: (message: unknown) => void, hello: Readonly<Record<string, unknown>>) => (data: unknown) => void

/** The global scope of a browser worker, as far as the handshake needs it. */
export interface BrowserWorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void
  removeEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void
}

function isConnect(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === CONNECT_MESSAGE
}

/**
 * Browser worker side: waits for the handshake on `scope`, then serves requests from the port it
 * carried (`event.ports[0]`). Messages on the global channel are ignored from then on.
 */
export function serveBrowserWorker(scope: BrowserWorkerScope, makeDispatch: MakeDispatch): void {
  const apply = Reflect.apply
  const descriptor = (name: 'data' | 'ports') => Object.getOwnPropertyDescriptor(MessageEvent.prototype, name)?.get
  const getData = descriptor('data')
  const getPorts = descriptor('ports')
  if (!getData || !getPorts) throw new Error('MessageEvent has no data/ports getters here.')
  const onConnect = (event: MessageEvent<unknown>) => {
    const data: unknown = apply(getData, event, [])
    const ports = apply(getPorts, event, []) as readonly MessagePort[]
    const port = ports[0]
    if (!isConnect(data) || !port) return
    scope.removeEventListener('message', onConnect)
    const postToHost = port.postMessage.bind(port) as (message: unknown) => void
    const dispatch = makeDispatch((message) => postToHost(message), data as Record<string, unknown>)
    // Assigning onmessage also starts the port.
    port.onmessage = (incoming: MessageEvent<unknown>) => dispatch(apply(getData, incoming, []))
  }
  scope.addEventListener('message', onConnect)
}

/** What a Node `MessagePort` (worker_threads) offers that the handshake needs. */
export interface NodePortLike {
  on(event: 'message', listener: (data: unknown) => void): unknown
  off(event: 'message', listener: (data: unknown) => void): unknown
  postMessage(message: unknown): void
}

/**
 * Node worker side: waits for the handshake on `parentPort` (the port travels inside the message
 * on worker_threads), then serves requests from that port only.
 */
export function serveNodeWorker(parentPort: NodePortLike, makeDispatch: MakeDispatch): void {
  const onConnect = (data: unknown) => {
    const port = isConnect(data) ? (data as { port?: NodePortLike }).port : undefined
    if (!port || typeof port.postMessage !== 'function') return
    parentPort.off('message', onConnect)
    const postToHost = port.postMessage.bind(port) as (message: unknown) => void
    const dispatch = makeDispatch((message) => postToHost(message), data as Record<string, unknown>)
    port.on('message', (incoming) => dispatch(incoming))
  }
  parentPort.on('message', onConnect)
}

/** What the child-process side needs from `process` (a Node process started with an IPC channel). */
export interface ChildProcessLike {
  on(event: 'message', listener: (data: unknown) => void): unknown
  off(event: 'message', listener: (data: unknown) => void): unknown
  send?: unknown
  _send?: unknown
}

/**
 * Child-process side (the CLI's sandbox under Node's permission model). A child process has no
 * second channel to hand over, and user code can call `process.send` itself, so the handshake
 * carries a secret `token` instead, and every reply travels as `{ token, json }`; the host drops
 * anything without it. The token arrives before user code loads and lives only in this closure.
 * Replies are copied into null-prototype objects and stringified with functions captured here,
 * so a patched `Object.prototype.toJSON`, `JSON.stringify` or `process._send` can neither read
 * the token nor rewrite a reply.
 */
export function serveChildProcess(proc: ChildProcessLike, makeDispatch: MakeDispatch): void {
  const apply = Reflect.apply
  const stringify = JSON.stringify
  const keys = Object.keys
  const create = Object.create
  const setPrototypeOf = Object.setPrototypeOf
  const isArray = Array.isArray
  const rawSend = typeof proc._send === 'function' ? proc._send : proc.send
  if (typeof rawSend !== 'function') throw new Error('The sandbox child process was started without an IPC channel.')
  const sendArgs = rawSend === proc._send ? (envelope: unknown) => [envelope, undefined, { swallowErrors: false }, undefined] : (envelope: unknown) => [envelope]

  const plain = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value
    if (isArray(value)) {
      const out: unknown[] = []
      for (let index = 0; index < value.length; index++) out[index] = plain(value[index])
      setPrototypeOf(out, null)
      return out
    }
    const out = create(null) as Record<string, unknown>
    const names = keys(value)
    for (let index = 0; index < names.length; index++) {
      const name = names[index] as string
      out[name] = plain((value as Record<string, unknown>)[name])
    }
    return out
  }

  const onConnect = (data: unknown) => {
    const token = isConnect(data) ? (data as { token?: unknown }).token : undefined
    if (typeof token !== 'string' || token === '') return
    proc.off('message', onConnect)
    const dispatch = makeDispatch((message) => {
      const envelope = create(null) as Record<string, unknown>
      envelope.token = token
      envelope.json = stringify(plain(message))
      apply(rawSend, proc, sendArgs(envelope))
      // The handshake carries the token; it stays in this closure.
    }, {})
    proc.on('message', (incoming) => dispatch(incoming))
  }
  proc.on('message', onConnect)
}
