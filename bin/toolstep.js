#!/usr/bin/env node
// Thin launcher: the CLI is built to dist-cli/ by `npm run build:cli` (run by `npm ci` via `prepare`).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const built = fileURLToPath(new URL('../dist-cli/cli.js', import.meta.url))
if (!existsSync(built)) {
  process.stderr.write('toolstep: the CLI is not built yet. Run `npm run build:cli` (or `npm ci`) first.\n')
  process.exit(2)
}
await import(built)
