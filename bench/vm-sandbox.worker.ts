/**
 * The browser sandbox's worker, as far as Node can run it: the QuickJS VM with the runtime bundle
 * (passed in `workerData.runtimeSource`), served by the same `worker-dispatch` over a private
 * port. Only the bench uses it, to time the browser's path (host ↔ worker messages, batches, the
 * VM) beside the Node sandbox without a browser.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import type { SandboxToHost } from '../src/sandbox/protocol'
import { createQuickJsRuntime } from '../src/sandbox/vm/quickjs-runtime'
import { serveNodeWorker } from '../src/sandbox/worker-channel'
import { createWorkerDispatch } from '../src/sandbox/worker-dispatch'

if (!parentPort) throw new Error('vm-sandbox.worker must be started as a worker thread.')
const { runtimeSource } = workerData as { runtimeSource: string }
const vmModule = newQuickJSWASMModuleFromVariant(variant)
serveNodeWorker(parentPort, (post) =>
  createWorkerDispatch(
    post,
    vmModule.then((module) =>
      createQuickJsRuntime(module, runtimeSource, {
        onCrash: (crash) => post({ type: 'crashed', outOfMemory: crash.outOfMemory, limitMb: crash.limitMb, reason: crash.message } satisfies SandboxToHost),
      }),
    ),
  ),
)
