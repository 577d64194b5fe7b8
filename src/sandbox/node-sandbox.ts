/**
 * The sandbox on Node (the `toolstep run` CLI and unit tests): user code runs in a worker thread.
 *
 * The worker file is found next to this module: `node-sandbox.worker.js` when running from the
 * `dist-cli/` build, else (tests, `npm run cli`) a bundle of `node-sandbox.worker.ts` made once
 * per process (see `node-bundle-source.ts`): Node cannot run a `.ts` worker by itself, and a
 * TypeScript loader registered in each worker made every start cost most of a second.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { MessageChannel, Worker, type ResourceLimits } from 'node:worker_threads'
import { bundledEntry } from './node-bundle-source'
import { readSharedLabel, SHARED_LABEL_BYTES } from './node-call-tracker'
import { CONNECT_MESSAGE } from './worker-channel'
import { createSandboxHost, type Sandbox, type SandboxOptions, type SpawnWorker } from './sandbox-host'

export type { LoadResult, Sandbox, SandboxOptions, SandboxSources } from './sandbox-host'
export type { LoadedTool, SourceError } from './protocol'

/** The Node sandbox: a {@link Sandbox} (`Model`, `ToolExecutor`, `ToolRouter`, `ResultSummarizer`, `CodeRunner`, `load`, `dispose`). */
export type NodeSandbox = Sandbox

/**
 * Where the built worker may sit relative to this module's code: beside it (`dist-cli/cli.js`),
 * or one level up when the bundler put this module in a shared chunk (`dist-cli/assets/*.js`).
 */
const BUILT_WORKER_CANDIDATES = ['./node-sandbox.worker.js', '../node-sandbox.worker.js']

/** Default heap cap of the sandbox worker, MB: far above any honest tool, far below what takes a machine down. */
export const DEFAULT_MEMORY_LIMIT_MB = 512

/** Options of {@link createNodeSandbox}. */
export interface NodeSandboxOptions extends SandboxOptions {
  /**
   * Heap cap of the worker (V8 old generation), MB. Default {@link DEFAULT_MEMORY_LIMIT_MB}. A
   * file that allocates past it stops with `tools.ts ran out of memory (limit 512 MB) …` instead
   * of taking the process down.
   */
  memoryLimitMb?: number
}

function createWorker(resourceLimits: ResourceLimits): Worker {
  for (const candidate of BUILT_WORKER_CANDIDATES) {
    const built = new URL(candidate, import.meta.url)
    if (existsSync(fileURLToPath(built))) return new Worker(built, { resourceLimits })
  }
  return new Worker(bundledEntry(new URL('./node-sandbox.worker.ts', import.meta.url)), { resourceLimits })
}

/**
 * Creates a Node sandbox. Same behaviour as the browser one. Call `dispose()` when done: a live
 * worker keeps the process running.
 */
export function createNodeSandbox(options: NodeSandboxOptions = {}): NodeSandbox {
  const limitMb = options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB
  if (!Number.isInteger(limitMb) || limitMb < 16) throw new Error(`The sandbox memory limit must be a whole number of MB ≥ 16, not ${limitMb}.`)
  const spawn: SpawnWorker = (events) => {
    const worker = createWorker({ maxOldGenerationSizeMb: limitMb })
    let terminated = false
    // Replies come only over this private port (see worker-channel.ts); what user code posts
    // on `parentPort` is never read.
    const channel = new MessageChannel()
    channel.port1.on('message', (data: unknown) => events.message(data))
    // Where the worker keeps the label of the tool call whose code runs, readable while it is blocked.
    const labels = new SharedArrayBuffer(SHARED_LABEL_BYTES)
    worker.postMessage({ type: CONNECT_MESSAGE, port: channel.port2, labels }, [channel.port2])
    // In a worker thread an uncaught error ends the thread, so every error is fatal.
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') events.error(error.message, true, { outOfMemory: true, limitMb })
      else events.error(`${error.name}: ${error.message}`, true)
    })
    worker.on('exit', (code) => {
      if (!terminated) events.error(`the worker exited with code ${code}`, true)
    })
    return {
      post: (message) => channel.port1.postMessage(message),
      runningCall: () => readSharedLabel(labels),
      terminate: () => {
        terminated = true
        channel.port1.close()
        void worker.terminate()
      },
    }
  }
  return createSandboxHost(spawn, options)
}
