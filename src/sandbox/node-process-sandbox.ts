/**
 * The CLI's sandbox: user code runs in a child Node process under Node's permission model
 * (`--permission`, `--experimental-permission` on Node 20). It may read the Toolstep package's
 * own files (to load its code) and use the network to any host (`fetch`, `node:net`, `node:tls`), but cannot write files, start
 * processes or workers, signal other processes or read the environment (only locale and time zone
 * are passed), unless the user passes `allowFsWrite` paths or `trust`. Its heap
 * is capped with `--max-old-space-size`, and what that cap does not count (ArrayBuffer, typed-array,
 * Buffer and WebAssembly memory) by a watchdog in this process that polls the child's resident and
 * committed memory;
 * running out of memory is reported with the file and phase, and the host process lives on.
 *
 * Talks to the child over the IPC channel with a per-sandbox secret token (see
 * `serveChildProcess` in `worker-channel.ts`): messages without it are dropped.
 */
import { execFile, fork, type ChildProcess } from 'node:child_process'
import { closeSync, existsSync, mkdtempSync, openSync, readFile, rmSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundledEntry } from './node-bundle-source'
import { DEFAULT_MEMORY_LIMIT_MB } from './node-sandbox'
import { createSandboxHost, type Sandbox, type SandboxOptions, type SpawnWorker } from './sandbox-host'
import { readFileLabel } from './node-call-tracker'
import { CONNECT_MESSAGE } from './worker-channel'

/** Options of {@link createProcessSandbox}. */
export interface ProcessSandboxOptions extends SandboxOptions {
  /** Heap cap of the child (V8 old generation), MB. Default 512. */
  memoryLimitMb?: number
  /** Files or folders user code may write (each becomes `--allow-fs-write`). Default none. */
  allowFsWrite?: readonly string[]
  /** Run without the permission model: user code gets the user's full privileges. */
  trust?: boolean
}

/** Where the built child may sit relative to this module's code (see node-sandbox.ts). */
const BUILT_CHILD_CANDIDATES = ['./node-process-sandbox.child.js', '../node-process-sandbox.child.js']

/** The package root (the folder holding package.json) at or above `from`. */
function packageRoot(from: string): string {
  let dir = from
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir
    const up = dirname(dir)
    if (up === dir) return from
    dir = up
  }
}

/**
 * The child's entry file: the built one next to the CLI, else (tests, `npm run cli`) a bundle
 * of the TypeScript source (see `node-bundle-source.ts`). A TypeScript loader cannot be used inside the
 * child anyway: tsx and esbuild start worker threads, which the permission model forbids.
 */
function childEntry(): string {
  for (const candidate of BUILT_CHILD_CANDIDATES) {
    const built = fileURLToPath(new URL(candidate, import.meta.url))
    if (existsSync(built)) return built
  }
  return bundledEntry(new URL('./node-process-sandbox.child.ts', import.meta.url))
}

/** The permission flag of this Node (`--permission` from Node 22, `--experimental-permission` on 20). */
function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission'
}

/**
 * The node flags the child runs with: permission model (reads limited to the package root,
 * writes to `allowFsWrite`) unless `trust`, and the heap cap.
 */
export function childExecArgv(entry: string, options: Pick<ProcessSandboxOptions, 'memoryLimitMb' | 'allowFsWrite' | 'trust'>): string[] {
  const limitMb = options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB
  const flags = [`--max-old-space-size=${limitMb}`, '--disable-warning=ExperimentalWarning']
  if (options.trust) return flags
  flags.push(permissionFlag(), `--allow-fs-read=${entry.endsWith('.mjs') ? dirname(entry) : packageRoot(dirname(entry))}`)
  for (const path of options.allowFsWrite ?? []) flags.push(`--allow-fs-write=${resolve(path)}`)
  return flags
}

/** Environment variables user code sees without `trust`: locale and time zone only (dates and `Intl` as the user's). */
const PASSED_ENV = /^(LANG|LANGUAGE|LC_[A-Z]+|TZ)$/

/**
 * The child's environment: the user's whole environment with `trust`, else only locale and time
 * zone. The environment holds secrets (`TOOLSTEP_API_KEY`, `OPENAI_API_KEY`, cloud tokens) that a
 * shared workspace's code could read and send away with `fetch`; the endpoint client that needs
 * the key runs in the CLI's own process, not in the sandbox.
 */
export function childEnv(env: NodeJS.ProcessEnv, trust: boolean | undefined): NodeJS.ProcessEnv {
  if (trust) return env
  return Object.fromEntries(Object.entries(env).filter(([name]) => PASSED_ENV.test(name)))
}

/** V8's words when a heap cap is hit (`FATAL ERROR: Reached heap limit …`, `… JavaScript heap out of memory`, and the GC trace it prints first). */
const OUT_OF_MEMORY = /Reached heap limit|heap out of memory|Ineffective mark-compacts near heap limit|<--- Last few GCs --->|<--- JS stacktrace --->/

/** How often the memory watchdog reads the child's resident memory, ms. */
const MEMORY_POLL_MS = 40

/**
 * Resident memory the child may grow by beyond its heap cap, MB: V8's young generation, code and
 * the malloc arenas are outside `--max-old-space-size`, so an honest file near its cap needs room.
 */
const MEMORY_SLACK_MB = 64

/**
 * Committed memory the child may grow by beyond its heap cap, MB. V8 commits its young generation
 * and code space outside `--max-old-space-size`, and commits heap pages a little ahead of use.
 */
const COMMITTED_SLACK_MB = 128

/** What the watchdog reads of the child's memory, bytes. */
interface MemoryReading {
  /** Resident set size. */
  resident: number
  /**
   * Private writable memory committed to the process (Linux `VmData`), touched or not: an
   * ArrayBuffer that was allocated but never written counts here but not in `resident`, while
   * address space only reserved (WebAssembly memories, V8's heap cage) counts in neither.
   * Undefined where the system does not tell.
   */
  committed?: number
}

/**
 * The memory of process `pid`, or undefined once it is gone. Reads `/proc/<pid>/status`
 * (`VmRSS`, `VmData`, kB) on Linux, else asks `ps -o rss=` (kB, POSIX; resident only).
 */
function readMemory(pid: number, done: (reading: MemoryReading | undefined) => void): void {
  const field = (text: string, name: string): number | undefined => {
    const kb = new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1]
    return kb === undefined ? undefined : Number(kb) * 1024
  }
  if (process.platform === 'linux') {
    readFile(`/proc/${pid}/status`, 'utf8', (error, text) => {
      const resident = error ? undefined : field(text, 'VmRSS')
      const committed = error ? undefined : field(text, 'VmData')
      done(resident === undefined ? undefined : { resident, ...(committed === undefined ? {} : { committed }) })
    })
  } else {
    execFile('ps', ['-o', 'rss=', '-p', String(pid)], (error, text) => {
      const kb = error ? undefined : /(\d+)/.exec(text)?.[1]
      done(kb === undefined ? undefined : { resident: Number(kb) * 1024 })
    })
  }
}

/**
 * Stops the child when its resident memory grows past `limitMb` (plus {@link MEMORY_SLACK_MB}),
 * or its committed memory past `limitMb` (plus {@link COMMITTED_SLACK_MB}), over what it used
 * when it started. V8's heap cap does not count ArrayBuffer backing stores, so without this a
 * typed-array bomb takes the machine's memory; and buffers that are never written are not
 * resident at all, so without the committed measure `while (true) a.push(new ArrayBuffer(1e9))`
 * would run until its timeout. Runs in the host's event loop, which user code in the child cannot
 * block. `onReading` hears each reading's growth of resident memory over the baseline, bytes.
 * Returns the function that stops watching.
 */
function watchMemory(pid: number, limitMb: number, overLimit: () => void, onReading: (residentGrowth: number) => void): () => void {
  const MB = 1024 * 1024
  let baseline: MemoryReading | undefined
  let busy = false
  let stopped = false
  const timer = setInterval(() => {
    if (busy) return
    busy = true
    readMemory(pid, (reading) => {
      busy = false
      if (stopped || reading === undefined) return
      // The lowest reading is the baseline: the first ones may come while the child still boots.
      baseline ??= { ...reading }
      baseline.resident = Math.min(baseline.resident, reading.resident)
      if (reading.committed !== undefined) baseline.committed = Math.min(baseline.committed ?? reading.committed, reading.committed)
      onReading(reading.resident - baseline.resident)
      const residentOver = reading.resident - baseline.resident > (limitMb + MEMORY_SLACK_MB) * MB
      const committedOver = reading.committed !== undefined && reading.committed - (baseline.committed ?? reading.committed) > (limitMb + COMMITTED_SLACK_MB) * MB
      if (residentOver || committedOver) {
        stop()
        overLimit()
      }
    })
  }, MEMORY_POLL_MS)
  // The watchdog alone must not keep the CLI alive.
  timer.unref()
  const stop = () => {
    stopped = true
    clearInterval(timer)
  }
  return stop
}

/**
 * How long a child whose memory still grows toward its cap may be waited for to reach it after its
 * timeout passed, ms at most. Small objects fill a heap slowly near its cap, so a memory bomb may
 * reach its timeout first; it is reported as what it is, but stopped close to its timeout.
 */
const OUT_OF_MEMORY_GRACE_MS = 1_000

/**
 * Share of the heap cap the child's resident memory has grown by when its heap counts as full.
 * Near its cap V8 runs one full collection after another that free almost nothing, and its
 * resident memory stops growing long before it gives up (the tester's string bomb thrashed for
 * 20 s): waiting for V8's own verdict would report such a bomb as a timeout, late.
 */
const NEAR_CAP = 0.75

/**
 * Over this many ms without its resident memory growing by a MB, a child is not on its way to
 * running out of memory (V8's last collections before it gives up come faster than this).
 */
const GROWTH_WINDOW_MS = 2_000

/**
 * Follows a child's memory for {@link WorkerEndpoint.outOfMemoryVerdict}: `reading` takes each
 * watchdog reading, `exited` the child's end, and `verdict` decides as that method says. `full`
 * is called (once) when the child passed its timeout with its heap near its cap: it must stop the
 * child as out of memory, whose end then comes through `exited(true)`.
 */
function memoryVerdicts(limitMb: number, full: () => void) {
  const MB = 1024 * 1024
  let growth = 0
  let peak = 0
  let grewAt = 0
  let ended: boolean | undefined
  let stopping = false
  const waiters = new Set<(outOfMemory: boolean) => void>()
  const settleAll = (outOfMemory: boolean) => {
    for (const waiter of [...waiters]) waiter(outOfMemory)
  }
  const nearCap = () => growth >= limitMb * MB * NEAR_CAP
  /** Stops the child as out of memory; the verdict comes with its end. */
  const stopFull = () => {
    if (stopping) return
    stopping = true
    full()
  }
  return {
    reading(residentGrowth: number) {
      growth = residentGrowth
      if (residentGrowth > peak + MB) {
        peak = residentGrowth
        grewAt = performance.now()
      }
      if (waiters.size === 0) return
      // Past its timeout and near its cap: it is out of memory, whether V8 says so yet or not.
      if (nearCap()) stopFull()
      // No longer growing: whatever it does, it is not running out of memory.
      else if (performance.now() - grewAt > GROWTH_WINDOW_MS) settleAll(false)
    },
    exited(outOfMemory: boolean) {
      ended = outOfMemory
      settleAll(outOfMemory)
    },
    verdict(): Promise<boolean> {
      if (ended !== undefined) return Promise.resolve(ended)
      if (!nearCap() && (growth < (limitMb * MB) / 2 || performance.now() - grewAt > GROWTH_WINDOW_MS)) return Promise.resolve(false)
      return new Promise((resolve) => {
        const done = (outOfMemory: boolean) => {
          waiters.delete(done)
          clearTimeout(timer)
          resolve(outOfMemory)
        }
        const timer = setTimeout(() => done(false), OUT_OF_MEMORY_GRACE_MS)
        waiters.add(done)
        if (nearCap()) stopFull()
      })
    },
  }
}

let labelDir: string | undefined

/**
 * Opens a fresh, empty file for one child's call labels (see node-call-tracker.ts) and returns its
 * descriptor. The name is removed at once where the system allows (the open descriptors keep the
 * file), else when this process exits.
 */
function openLabelFile(token: string): number {
  if (!labelDir) {
    const dir = mkdtempSync(join(tmpdir(), 'toolstep-labels-'))
    labelDir = dir
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  }
  const path = join(labelDir, token)
  const fd = openSync(path, 'w+', 0o600)
  try {
    unlinkSync(path)
  } catch {
    // Windows keeps an open file's name; the folder goes at exit.
  }
  return fd
}

/**
 * Creates the CLI sandbox. Same behaviour as the other sandboxes; call `dispose()` when done.
 * Throws when `memoryLimitMb` is not a whole number ≥ 16.
 */
/** How each live sandbox child is stopped when a line on an IPC channel cannot be read. */
const garbleStops = new Set<() => void>()
let watchingGarble = false

/**
 * Node reads each child's IPC channel itself and throws, uncaught, on a line that is not JSON (a
 * sandbox given `--trust` can write anything to its descriptor): the CLI died with the channel's
 * buffer in its output, the token with it. Which channel it was cannot be told, so every sandbox
 * child is stopped with a clear error and the CLI goes on. Any other uncaught error still ends the
 * process as Node would when nothing else listens.
 */
function watchChannelGarble(): void {
  if (watchingGarble) return
  watchingGarble = true
  process.on('uncaughtException', (error) => {
    if (error instanceof SyntaxError && /parseChannelMessages/.test(error.stack ?? '')) {
      for (const stop of [...garbleStops]) stop()
      return
    }
    if (process.listenerCount('uncaughtException') > 1) return
    process.stderr.write(`${error.stack ?? String(error)}\n`)
    process.exit(1)
  })
}

export function createProcessSandbox(options: ProcessSandboxOptions = {}): Sandbox {
  const limitMb = options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB
  if (!Number.isInteger(limitMb) || limitMb < 16) throw new Error(`The sandbox memory limit must be a whole number of MB ≥ 16, not ${limitMb}.`)
  const entry = childEntry()
  const execArgv = childExecArgv(entry, { ...options, memoryLimitMb: limitMb })
  const spawn: SpawnWorker = (events) => {
    const token = globalThis.crypto.randomUUID()
    let terminated = false
    let outOfMemory = false
    const labels = openLabelFile(token)
    let labelsOpen = true
    /** The label the file held when it was closed: after the child died, which call it was running. */
    let lastLabel: string | undefined
    const closeLabels = () => {
      if (!labelsOpen) return
      lastLabel = readFileLabel(labels)
      labelsOpen = false
      closeSync(labels)
    }
    const child: ChildProcess = fork(entry, [], {
      execArgv,
      cwd: dirname(entry),
      // fd 4: the label of the tool call whose code runs (see node-call-tracker.ts). What user
      // code writes to stdout goes to our stderr: stdout is the CLI's (`--json` output).
      stdio: ['ignore', 'pipe', 'pipe', 'ipc', labels],
      serialization: 'json',
      env: childEnv(process.env, options.trust),
    })
    const stopForMemory = () => {
      outOfMemory = true
      child.kill('SIGKILL')
    }
    const verdicts = memoryVerdicts(limitMb, stopForMemory)
    const stopWatching = child.pid === undefined ? () => {} : watchMemory(child.pid, limitMb, stopForMemory, verdicts.reading)
    child.stdout?.on('data', (chunk: Buffer) => process.stderr.write(chunk))
    child.stderr?.setEncoding('utf8')
    child.stderr?.on('data', (chunk: string) => {
      if (OUT_OF_MEMORY.test(chunk)) outOfMemory = true
      // What user code wrote to stderr is the user's; V8's out-of-memory report is replaced by ours.
      if (!outOfMemory) process.stderr.write(chunk)
    })
    child.on('message', (data: unknown) => {
      if (typeof data !== 'object' || data === null) return
      const envelope = data as { token?: unknown; json?: unknown }
      if (envelope.token !== token || typeof envelope.json !== 'string') return
      let message: unknown
      try {
        message = JSON.parse(envelope.json)
      } catch {
        return
      }
      events.message(message)
    })
    child.on('error', (error) => events.error(`${error.name}: ${error.message}`, true))
    let garbled = false
    const stopGarbled = () => {
      if (garbled || terminated) return
      garbled = true
      events.error('a sandbox process wrote something that is not a message to its channel to the CLI (code in it wrote to the channel\'s descriptor), so it was stopped', true, { outOfMemory: false })
      child.kill('SIGKILL')
    }
    watchChannelGarble()
    garbleStops.add(stopGarbled)
    child.once('exit', () => garbleStops.delete(stopGarbled))
    const exited = (code: number | null, signal: NodeJS.Signals | null) => {
      if (terminated) return
      if (garbled) {
        verdicts.exited(false)
        return
      }
      if (outOfMemory) events.error('the sandbox process ran out of memory', true, { outOfMemory: true, limitMb })
      else events.error(`the sandbox process ${signal === 'SIGABRT' || code === 134 ? 'aborted' : `exited with ${signal ? `signal ${signal}` : `code ${code}`}`}`, true, { outOfMemory: false })
      verdicts.exited(outOfMemory)
    }
    child.on('exit', (code, signal) => {
      stopWatching()
      closeLabels()
      if (outOfMemory || (signal !== 'SIGABRT' && code !== 134)) {
        exited(code, signal)
        return
      }
      // V8 aborts when the heap cap is hit, and says so on stderr, which may still be on its way:
      // wait for it to close (briefly: with --trust a process the child started may hold it open).
      let decided = false
      const decide = () => {
        if (decided) return
        decided = true
        clearTimeout(wait)
        exited(code, signal)
      }
      const wait = setTimeout(decide, 500)
      child.once('close', decide)
    })
    child.send({ type: CONNECT_MESSAGE, token })
    return {
      post: (message) => {
        if (child.connected) child.send(message)
      },
      runningCall: () => (labelsOpen ? readFileLabel(labels) : lastLabel),
      outOfMemoryVerdict: () => verdicts.verdict(),
      terminate: () => {
        terminated = true
        garbleStops.delete(stopGarbled)
        stopWatching()
        child.kill('SIGKILL')
        closeLabels()
      },
    }
  }
  return createSandboxHost(spawn, options)
}
