/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { authoringTypesPlugin } from './scripts/authoring-types'
import { exportKitPlugin } from './scripts/export-kit'
import { vmRuntimePlugin } from './scripts/vm-bundle'

// `toolstep` is the module name user code imports its authoring API from; in the
// app and in tests it resolves to the same file the sandbox injects at run time.
const authoring = fileURLToPath(new URL('./src/sandbox/authoring.ts', import.meta.url))

export default defineConfig({
  // authoringTypesPlugin: the editor's `toolstep` declarations, generated from the authoring source.
  // exportKitPlugin: Toolstep's code bundled into exported loops (Export → TypeScript loop / Vitest test).
  // vmRuntimePlugin: the runtime evaluated inside the browser sandbox's QuickJS VM.
  plugins: [react(), tailwindcss(), authoringTypesPlugin(), exportKitPlugin(), vmRuntimePlugin()],
  resolve: { alias: { toolstep: authoring } },
  // The sandbox worker's QuickJS VM: its runtime bundle, as with the app.
  worker: { format: 'es', plugins: () => [vmRuntimePlugin()] },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  build: { chunkSizeWarningLimit: 8000, rolldownOptions: { checks: { bundlerTimings: false } } },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20_000,
    // One test file per core: Vitest's default leaves a core for its main process, which on a
    // two-core CI machine means a single worker, and the main process is mostly idle.
    maxWorkers: '100%',
    // `npm run test:unit` (and so `npm test`) runs with --coverage; plain `vitest run` stays fast.
    coverage: {
      provider: 'v8',
      include: ['src/core/**/*.ts', 'src/sandbox/**/*.ts', 'src/store/**/*.ts'],
      exclude: ['src/**/*.test.ts', 'src/**/*.d.ts'],
      reporter: ['text-summary', ['text', { skipFull: true }]],
      // A floor per layer, on the lines of that layer's files taken together.
      thresholds: {
        'src/core/**': { lines: 90 },
        'src/store/**': { lines: 80 },
      },
    },
  },
})
