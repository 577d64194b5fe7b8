import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { exportKitPlugin } from './scripts/export-kit'

// The CLI and its worker_threads sandbox entry are built to dist-cli/ so that
// `npx toolstep` runs on plain Node without a TypeScript loader.
export default defineConfig({
  publicDir: false,
  // `toolstep export-code` / `export-test` write Toolstep's bundled code into the exported file.
  plugins: [exportKitPlugin()],
  resolve: { alias: { toolstep: fileURLToPath(new URL('./src/sandbox/authoring.ts', import.meta.url)) } },
  // Dependencies are bundled in: the sandbox child may read only Toolstep's own folder (Node's
  // permission model), and an install hoists zod, sucrase and the rest beside it, out of reach.
  ssr: { noExternal: true },
  build: {
    ssr: true,
    outDir: 'dist-cli',
    target: 'node20',
    emptyOutDir: true,
    rolldownOptions: {
      input: { cli: 'src/cli/bin.ts', 'node-sandbox.worker': 'src/sandbox/node-sandbox.worker.ts', 'node-process-sandbox.child': 'src/sandbox/node-process-sandbox.child.ts' },
      output: { entryFileNames: '[name].js' },
      checks: { bundlerTimings: false },
    },
  },
})
