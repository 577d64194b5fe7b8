/**
 * The runtime's own tests (loading, tools, the model, hooks, namespaces, code-as-action), run a
 * second time against the runtime inside the QuickJS VM of the browser sandbox: `createRuntime`
 * is swapped for a QuickJS-backed one, and the same assertions must hold.
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

await import('../runtime.test')
await import('../run-code.test')
await import('../namespaces-hooks.test')
