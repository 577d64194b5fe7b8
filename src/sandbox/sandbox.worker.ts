/**
 * Browser Web Worker entry of the sandbox. Constructed by `browser-sandbox.ts` with
 * `new Worker(new URL('./sandbox.worker.ts', import.meta.url), { type: 'module' })`; requests
 * arrive on the private port the host transfers first (see `worker-channel.ts`).
 *
 * User code runs in a QuickJS VM inside this worker (see `vm/quickjs-runtime.ts`). The VM's wasm
 * file is bundled by Vite (`?url`), so it loads from the app's own origin, offline.
 */
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core'
import releaseSync from '@jitl/quickjs-wasmfile-release-sync'
import wasmLocation from '@jitl/quickjs-wasmfile-release-sync/wasm?url'
import runtimeSource from 'virtual:toolstep-vm-runtime'
import type { SandboxToHost } from './protocol'
import { createQuickJsRuntime, DEFAULT_VM_MEMORY_LIMIT_MB } from './vm/quickjs-runtime'
import { serveBrowserWorker } from './worker-channel'
import { createWorkerDispatch } from './worker-dispatch'

const vmModule = newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmLocation }))

serveBrowserWorker(self as unknown as DedicatedWorkerGlobalScope, (post, hello) => {
  const requested = hello.memoryLimitMb
  const memoryLimitMb = typeof requested === 'number' && requested > 0 ? requested : DEFAULT_VM_MEMORY_LIMIT_MB
  const runtime = vmModule.then((module) =>
    createQuickJsRuntime(module, runtimeSource, {
      memoryLimitMb,
      onCrash: (crash) => post({ type: 'crashed', outOfMemory: crash.outOfMemory, limitMb: crash.limitMb, reason: crash.message, ...(crash.leftBy ? { leftBy: crash.leftBy } : {}) } satisfies SandboxToHost),
    }),
  )
  return createWorkerDispatch(post, runtime)
})
