/**
 * A `CliIO` for tests: files from memory (absolute paths fall back to disk), output recorded.
 * Files given as bytes, and files on disk, are decoded as `nodeIO` decodes them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
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
    listDirectory: (path) => {
      const prefix = path.endsWith('/') ? path : `${path}/`
      const inMemory = Object.keys(files).filter((name) => name.startsWith(prefix) && !name.slice(prefix.length).includes('/'))
      if (inMemory.length > 0) return Promise.resolve(inMemory.sort())
      if (!path.startsWith('/') || !statSync(path, { throwIfNoEntry: false })?.isDirectory()) return Promise.resolve(null)
      const names = readdirSync(path, { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(path, entry.name))
        .sort()
      return Promise.resolve(names)
    },
  }
  return { io, stdout: () => out.join(''), stderr: () => err.join('') }
}
