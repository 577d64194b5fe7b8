/**
 * A `CliIO` for tests: files from memory (text or bytes; absolute paths fall back to disk),
 * output recorded. Bytes and files on disk are decoded as `nodeIO` decodes them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { textOf, type CliIO } from '../cli/io'

export function fakeIO(files: Record<string, string | Uint8Array> = {}, stdin: string | Uint8Array = '', env: Record<string, string> = {}) {
  const out: string[] = []
  const err: string[] = []
  const written: Record<string, string> = {}
  const asText = (content: string | Uint8Array) => (typeof content === 'string' ? content : textOf(content))
  const io: CliIO = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    readStdin: async () => asText(stdin),
    env,
    readFile: async (path) => {
      if (Object.hasOwn(files, path)) return asText(files[path]!)
      if (path.startsWith('/')) return textOf(readFileSync(path))
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
    writeFile: async (path, text) => {
      if (path.startsWith('/nonexistent/')) throw new Error(`ENOENT: no such file or directory, open '${path}'`)
      written[path] = text
    },
  }
  /** Files written through `writeFile`, by path (a path under /nonexistent/ fails to write). */
  return { io, stdout: () => out.join(''), stderr: () => err.join(''), written }
}
