/**
 * `npm run bench [-- NAME…]`: runs every `bench/*.bench.ts` in turn (or only those whose file
 * name contains one of the given names). Each bench file does its work when imported.
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const directory = dirname(fileURLToPath(import.meta.url))
const filters = process.argv.slice(2).filter((argument) => !argument.startsWith('-'))
const files = readdirSync(directory)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort()

if (files.length === 0) {
  console.error(`No bench file matches ${filters.join(', ')}.`)
  process.exitCode = 2
}
for (const file of files) {
  console.log(`\n=== ${file} ===`)
  await import(pathToFileURL(join(directory, file)).href)
}
