/** A `CliIO` for tests: files from memory (absolute paths fall back to disk), output recorded. */
import { readFileSync } from 'node:fs'
import type { CliIO } from '../cli/io'

export function fakeIO(files: Record<string, string> = {}, stdin = '') {
  const out: string[] = []
  const err: string[] = []
  const io: CliIO = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    readStdin: () => Promise.resolve(stdin),
    readFile: async (path) => {
      if (Object.hasOwn(files, path)) return files[path]!
      if (path.startsWith('/')) return readFileSync(path, 'utf8')
      throw new Error(`ENOENT: no such file or directory, open '${path}'`)
    },
  }
  return { io, stdout: () => out.join(''), stderr: () => err.join('') }
}
