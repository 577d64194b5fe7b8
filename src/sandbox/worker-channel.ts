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

/** Makes the message handler once the channel is up; `post` sends to the host over the private port. */
export type MakeDispatch = (post: (message: unknown) => void) => (data: unknown) => void

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
    const dispatch = makeDispatch((message) => postToHost(message))
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
    const dispatch = makeDispatch((message) => postToHost(message))
    port.on('message', (incoming) => dispatch(incoming))
  }
  parentPort.on('message', onConnect)
}
