/**
 * A `CliIO` for tests: files from memory (absolute paths fall back to disk), output recorded.
 * Files given as bytes, and files on disk, are decoded as `nodeIO` decodes them.
 */
import { readFileSync } from 'node:fs'
import { decodeText } from '../core/util'
import type { CliIO } from '../cli/io'

export function fakeIO(files: Record<string, string | Uint8Array> = {}, stdin = '') {
  const out: string[] = []
  const err: string[] = []
  const io: CliIO = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    readStdin: () => Promise.resolve(stdin),
    readFile: async (path) => {
      if (Object.hasOwn(files, path)) {
        const file = files[path]!
        return typeof file === 'string' ? file : decodeText(file)
      }
      if (path.startsWith('/')) return decodeText(readFileSync(path))
      throw new Error(`ENOENT: no such file or directory, open '${path}'`)
    },
  }
  return { io, stdout: () => out.join(''), stderr: () => err.join('') }
}
