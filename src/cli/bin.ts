/** Process entry of the `toolstep` command (built to dist-cli/cli.js). */
import { main } from './main'
import { nodeIO } from './node-io'

// `toolstep replay … | head` closes the pipe early: that is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
  throw error
})

main(process.argv.slice(2), nodeIO).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`toolstep: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exitCode = 2
  },
)
