#!/usr/bin/env node
/**
 * Probe: which places to run user code keep the page alive when that code allocates until it runs
 * out of memory? Serves a few pages on a free local port, opens each in headless Chromium, lets
 * the bomb run, then checks whether the page still answers a click (bounded wait).
 *
 *   flock /tmp/toolstep-heavy.lock node scripts/probe-worker-oom.mjs [case,case,…]
 *   EXTRA="--site-per-process" … to try browser flags.
 *
 * Cases: worker (a dedicated Worker, what the app uses), sandboxed-frame (<iframe sandbox=
 * "allow-scripts">, opaque origin), worker-in-sandboxed-frame, cross-site-frame (127.0.0.1 page,
 * localhost frame), shared-worker, worker-in-shared-worker.
 *
 * Result on Chromium 156 (Debian, headless, the flags of playwright.config.ts): every case
 * crashed the page, also with --site-per-process --enable-features=IsolateSandboxedIframes
 * (worker-in-shared-worker cannot run: a SharedWorker has no Worker constructor). So no frame
 * or worker gives user code a process of its own here. What does cap memory is a JavaScript
 * engine compiled to WebAssembly: quickjs-emscripten 0.32 with setMemoryLimit(256 MB) ran
 * zod 4.6.7 (safeParse, toJSONSchema), turned the same bomb into `InternalError: out of
 * memory`, stopped `while (true) {}` through its interrupt handler, and stayed usable.
 */
import http from 'node:http'
import { chromium } from 'playwright-core'

const BOMB = 'const hoard = []; for (;;) hoard.push(new Array(1e6).fill(Math.random()))'
const BUTTON = '<button id=b onclick="this.textContent=Number(this.textContent)+1">0</button>'
const workerOf = (code) => `new Worker(URL.createObjectURL(new Blob([${JSON.stringify(code)}])))`
const PAGES = {
  '/worker.html': `${BUTTON}<script>${workerOf(BOMB)}</script>`,
  '/sandboxed-frame.html': `${BUTTON}<iframe sandbox="allow-scripts" srcdoc="<script>${BOMB}</script>"></iframe>`,
  '/worker-in-sandboxed-frame.html': `${BUTTON}<iframe sandbox="allow-scripts" srcdoc='<script>${workerOf(BOMB).replace(/'/g, '&#39;')}</script>'></iframe>`,
  '/cross-site-frame.html': `${BUTTON}<iframe src="http://localhost:PORT/bomb.html"></iframe>`,
  '/shared-worker.html': `${BUTTON}<script>new SharedWorker('/bomb.js').port.start()</script>`,
  '/worker-in-shared-worker.html': `${BUTTON}<script>new SharedWorker('/nest.js').port.start()</script>`,
  '/bomb.html': `<script>${BOMB}</script>`,
  '/bomb.js': BOMB,
  '/nest.js': `onconnect = () => new Worker('/bomb.js')`,
}

const server = http.createServer((request, response) => {
  const body = PAGES[request.url ?? '']
  response.setHeader('content-type', request.url?.endsWith('.js') ? 'text/javascript' : 'text/html')
  response.end((body ?? 'not found').replaceAll('PORT', String(server.address().port)))
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const port = server.address().port
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [...(process.env.EXTRA ? process.env.EXTRA.split(' ') : []), '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
})
console.log(`Chromium ${browser.version()}`)
const cases = process.argv[2]?.split(',') ?? ['worker', 'sandboxed-frame', 'worker-in-sandboxed-frame', 'cross-site-frame', 'shared-worker', 'worker-in-shared-worker']
for (const name of cases) {
  const page = await browser.newPage()
  let crashed = false
  page.on('crash', () => {
    crashed = true
  })
  await page.goto(`http://127.0.0.1:${port}/${name}.html`).catch(() => {})
  // Long enough for the bomb to reach V8's heap limit on this machine.
  await new Promise((resolve) => setTimeout(resolve, 12_000))
  const answered = await page
    .click('#b', { timeout: 2_000 })
    .then(() => page.textContent('#b', { timeout: 1_000 }))
    .then((text) => text === '1')
    .catch(() => false)
  console.log(`${name.padEnd(28)} ${crashed || !answered ? 'page CRASHED' : 'page alive'}`)
  await page.close().catch(() => {})
}
await browser.close()
server.close()
