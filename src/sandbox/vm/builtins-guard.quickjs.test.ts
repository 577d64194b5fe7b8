/**
 * The changed-built-ins tests (builtins-guard.test.ts) run again against the runtime inside the
 * QuickJS VM of the browser sandbox, replies and all: the same assertions must hold.
 */
import { vi } from 'vitest'

vi.mock('../runtime', async () => {
  const { newQuickJSWASMModuleFromVariant } = await import('quickjs-emscripten-core')
  const { default: variant } = await import('@jitl/quickjs-wasmfile-release-sync')
  const { createQuickJsRuntime } = await import('./quickjs-runtime')
  const { default: runtimeSource } = await import('virtual:toolstep-vm-runtime')
  const module = await newQuickJSWASMModuleFromVariant(variant)
  return { createRuntime: () => createQuickJsRuntime(module, runtimeSource) }
})

await import('../builtins-guard.test')
