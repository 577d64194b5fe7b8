/**
 * Runs exported files as a user would: the TypeScript loop with `tsx`, the Vitest test with
 * `vitest run`, each in a fresh folder inside the repository (`.export-runs/`, git-ignored) so
 * `zod`, `tsx` and `vitest` resolve from the project's node_modules. Test-only.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** What a spawned process left behind. */
export interface Finished {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** A folder for exported files; `remove` deletes it. */
export function exportFolder(): { dir: string; write(name: string, text: string): string; remove(): void } {
  const base = join(ROOT, '.export-runs')
  mkdirSync(base, { recursive: true })
  const dir = mkdtempSync(join(base, 'run-'))
  return {
    dir,
    write(name, text) {
      const path = join(dir, name)
      writeFileSync(path, text)
      return path
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** The environment for a child: this one without the parent test runner's own variables. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!/^(VITEST|TEST$|NODE_OPTIONS$|TOOLSTEP_|OPENAI_API_KEY$)/.test(key)) env[key] = value
  return { ...env, NO_COLOR: '1', ...extra }
}

/** Spawns `node SCRIPT ...args` in `cwd`: the child (e.g. to send it SIGINT) and what it left when it ended. */
export function startNode(script: string, args: string[], options: { cwd: string; env?: Record<string, string> }): { child: ChildProcess; finished: Promise<Finished> } {
  const child = spawn(process.execPath, [script, ...args], { cwd: options.cwd, env: childEnv(options.env ?? {}), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text))
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text))
  const finished = new Promise<Finished>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
  return { child, finished }
}

/** Runs `node SCRIPT ...args` in `cwd` to its end. */
export function runNode(script: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Finished> {
  return startNode(script, args, options).finished
}

/** Starts `npx tsx FILE ...args`. */
export function startTsx(file: string, args: string[], options: { cwd: string; env?: Record<string, string> }): ReturnType<typeof startNode> {
  return startNode(join(ROOT, 'node_modules/tsx/dist/cli.mjs'), [file, ...args], options)
}

/** `npx tsx FILE ...args`. */
export function runTsx(file: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Finished> {
  return runNode(join(ROOT, 'node_modules/tsx/dist/cli.mjs'), [file, ...args], options)
}

/** `npx vitest run` on the test files in `dir`, with a config of its own (not the project's, which a config search would find above it). */
export function runVitest(dir: string): Promise<Finished> {
  const config = join(dir, 'vitest.config.mjs')
  writeFileSync(config, "export default { test: { include: ['*.test.ts'] } }\n")
  return runNode(join(ROOT, 'node_modules/vitest/vitest.mjs'), ['run', '--root', dir, '--config', config], { cwd: dir })
}
