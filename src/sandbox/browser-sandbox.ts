/**
 * The sandbox in the browser: user code runs in a module Web Worker, never on the page's thread.
 */
import { CONNECT_MESSAGE } from './worker-channel'
import { createSandboxHost, type Sandbox, type SandboxOptions, type SpawnWorker } from './sandbox-host'

export type { LoadResult, Sandbox, SandboxOptions, SandboxSources } from './sandbox-host'
export type { LoadedTool, SourceError } from './protocol'

/** The browser sandbox: a {@link Sandbox} (`Model`, `ToolExecutor`, `ToolRouter`, `ResultSummarizer`, `CodeRunner`, `load`, `dispose`). */
export type BrowserSandbox = Sandbox

/** Options of {@link createBrowserSandbox}. */
export interface BrowserSandboxOptions extends SandboxOptions {
  /** Makes the worker; defaults to the bundled `sandbox.worker.ts`. For tests and embedding. */
  createWorker?: () => Worker
}

/** Constructed the Vite way so the worker is bundled as its own chunk (and works offline). */
function defaultWorker(): Worker {
  return new Worker(new URL('./sandbox.worker.ts', import.meta.url), { type: 'module', name: 'toolstep-sandbox' })
}

/**
 * Creates a browser sandbox. No worker starts until {@link Sandbox.load} is called; each load
 * starts a fresh worker, and a timed-out call replaces it with a fresh one.
 */
export function createBrowserSandbox(options: BrowserSandboxOptions = {}): BrowserSandbox {
  const createWorker = options.createWorker ?? defaultWorker
  const spawn: SpawnWorker = (events) => {
    const worker = createWorker()
    // Replies come only over this private port (see worker-channel.ts): whatever user code posts on
    // the worker's global channel is never read.
    const channel = new MessageChannel()
    // Bound now, so that nothing patched later on the prototypes sees the port (matters when both ends share a realm, as in tests).
    const postToWorker = channel.port1.postMessage.bind(channel.port1) as (message: unknown) => void
    const getData = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data')?.get
    channel.port1.onmessage = (event: MessageEvent<unknown>) => events.message(getData ? Reflect.apply(getData, event, []) : event.data)
    worker.postMessage({ type: CONNECT_MESSAGE }, [channel.port2])
    // In a browser an uncaught error does not end the worker, so it is fatal only before `ready`
    // (the host treats any error before `ready` as a failed boot, e.g. the script did not load).
    worker.addEventListener('error', (event: ErrorEvent) => {
      event.preventDefault()
      events.error(event.message || 'The sandbox worker reported an error.', false)
    })
    channel.port1.addEventListener('messageerror', () => events.error('A message from the sandbox could not be read.', false))
    return {
      post: (message) => postToWorker(message),
      terminate: () => {
        worker.terminate()
        channel.port1.close()
      },
    }
  }
  return createSandboxHost(spawn, options)
}
