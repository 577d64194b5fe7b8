import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

// Debian's Chromium where installed (no browser download needed); otherwise Playwright's own.
const chromium = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined)
// 4173 by default; E2E_PORT runs a second suite beside another one on a shared machine.
const port = Number(process.env.E2E_PORT ?? 4173)

/**
 * Specs whose subject is time or the machine's limits (memory bombs, tool timeouts and
 * interrupts, huge outputs, main-thread long tasks, work moved off the main thread), a project
 * of their own: `--project=alone` runs just them, `--project=shared` the rest.
 */
const alone = ['memory-bomb', 'big-outputs', 'offthread', 'replay-scale', 'conversation-scale', 'errors', 'sandbox-boundary'].map((name) => `**/${name}.spec.ts`)

export default defineConfig({
  testDir: 'e2e',
  // One browser at a time: on a 2-core machine two browsers made the timing-sensitive checks of
  // the behaviour specs flaky (first-load chunks, the crash guard, the Parse lab's examples).
  workers: 1,
  // No retries: a test that needs a second try is a flaky test, and should fail the run.
  retries: 0,
  timeout: 60_000,
  // A loaded machine (CI beside other jobs) can take twice as long to a run's stop reason.
  expect: { timeout: 30_000 },
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    headless: true,
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      ...(chromium ? { executablePath: chromium } : {}),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
    },
  },
  projects: [
    { name: 'shared', testIgnore: alone },
    // Not a dependency of `shared`: running one of these specs alone must not run the whole suite first.
    { name: 'alone', testMatch: alone },
  ],
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    // Never reuse a server this run did not start: the port may belong to another process.
    reuseExistingServer: false,
    timeout: 60_000,
  },
})
