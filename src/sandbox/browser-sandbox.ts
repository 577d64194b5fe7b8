/**
 * The sandbox in the browser: user code runs in a module Web Worker, never on the page's thread.
 */
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
    worker.addEventListener('message', (event: MessageEvent<unknown>) => events.message(event.data))
    // In a browser an uncaught error does not end the worker, so it is fatal only before `ready`
    // (the host treats any error before `ready` as a failed boot, e.g. the script did not load).
    worker.addEventListener('error', (event: ErrorEvent) => {
      event.preventDefault()
      events.error(event.message || 'The sandbox worker reported an error.', false)
    })
    worker.addEventListener('messageerror', () => events.error('A message from the sandbox could not be read.', false))
    return {
      post: (message) => worker.postMessage(message),
      terminate: () => worker.terminate(),
    }
  }
  return createSandboxHost(spawn, options)
}
