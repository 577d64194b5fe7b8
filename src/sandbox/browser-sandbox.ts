/**
 * The sandbox in the browser: user code runs in a QuickJS VM (WebAssembly, with a memory limit
 * and an interrupt deadline) inside a module Web Worker, never on the page's thread. See
 * `vm/quickjs-runtime.ts` for why.
 */
import { CONNECT_MESSAGE } from './worker-channel'
import { sandboxToHostSchema } from './protocol'
import { createSandboxHost, type Sandbox, type SandboxOptions, type SpawnWorker } from './sandbox-host'

export type { LoadResult, Sandbox, SandboxOptions, SandboxSources } from './sandbox-host'
export type { LoadedTool, SourceError } from './protocol'

/** The browser sandbox: a {@link Sandbox} (`Model`, `ToolExecutor`, `ToolRouter`, `ResultSummarizer`, `CodeRunner`, `load`, `dispose`). */
export type BrowserSandbox = Sandbox

/** Options of {@link createBrowserSandbox}. */
export interface BrowserSandboxOptions extends SandboxOptions {
  /** Memory user code may allocate in the VM, MB. Default 256 (`DEFAULT_VM_MEMORY_LIMIT_MB`). */
  memoryLimitMb?: number
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
    channel.port1.onmessage = (event: MessageEvent<unknown>) => {
      const data: unknown = getData ? Reflect.apply(getData, event, []) : event.data
      // The worker's VM ran out of memory or failed: the worker is done, as if it had died.
      // Only a crash is read here; every other message is checked once, by the request client
      // (checking all of them twice cost ~45 ms on the reply of a 100 000-call tool batch).
      const crashed = (data as { type?: unknown } | null | undefined)?.type === 'crashed' ? sandboxToHostSchema.safeParse(data) : undefined
      if (crashed?.success && crashed.data.type === 'crashed') {
        const { outOfMemory, limitMb, reason, leftBy } = crashed.data
        events.error(reason, true, { outOfMemory, ...(limitMb === undefined ? {} : { limitMb }), ...(leftBy ? { leftBy } : {}) })
        return
      }
      events.message(data)
    }
    worker.postMessage({ type: CONNECT_MESSAGE, ...(options.memoryLimitMb === undefined ? {} : { memoryLimitMb: options.memoryLimitMb }) }, [channel.port2])
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
