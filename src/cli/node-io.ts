import { createReadStream } from 'node:fs'
import { readdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readTextChunks, type CliIO } from './io'

/** `CliIO` backed by the real process. */
export const nodeIO: CliIO = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  // Streamed, so an endless or binary input (`/dev/zero`, `/dev/urandom`) is refused early.
  readStdin: () => readTextChunks(process.stdin as AsyncIterable<Uint8Array>),
  readFile: (path) => readTextChunks(createReadStream(path, { highWaterMark: 1024 * 1024 })),
  writeFile: (path, text) => writeFile(path, text, 'utf8'),
  listDirectory: async (path) => {
    const info = await stat(path).catch(() => null)
    if (!info?.isDirectory()) return null
    const entries = await readdir(path, { withFileTypes: true })
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => join(path, entry.name))
      .sort()
  },
  env: process.env,
  onInterrupt(handler) {
    const first = () => {
      process.off('SIGINT', first)
      // The second Ctrl-C is the impatient one: leave at once, as without a handler.
      process.once('SIGINT', () => process.exit(130))
      handler()
    }
    process.on('SIGINT', first)
    return () => process.off('SIGINT', first)
  },
}
