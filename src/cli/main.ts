/**
 * `toolstep` — the headless side of Toolstep.
 *
 *   toolstep parse [FILE|-] [--protocol ID|auto] [--jsonl]
 *   toolstep run WORKSPACE.json [--max-steps N] [--break SPEC]… [--json]
 *   toolstep eval WORKSPACE.json [--json] [--junit FILE] [--shard K/N] [--concurrency N]
 *   toolstep diff A B [--json]
 *   toolstep replay LOG [--format auto|…] [--tools TOOLS.json] [--summary] [--json]
 *   toolstep export-code WORKSPACE.json [--endpoint URL] [--model NAME] [--stream] [-o FILE]
 *   toolstep export-test SESSION.json [-o FILE]
 *   toolstep --version
 *
 * Exit codes: 0 success, 1 the run or check did not pass, 2 usage or input errors.
 */
import packageJson from '../../package.json'
import type { CliIO } from './io'

/** The package version, printed by `toolstep --version`. */
export const VERSION: string = packageJson.version

const USAGE = `Usage: toolstep <command> [options]

Commands:
  parse [FILE|-] [--protocol ID|auto] [--jsonl]   Parse raw model output into tool calls (JSON out)
  run WORKSPACE.json [--max-steps N] [--approve all|none] [--break SPEC]… [--json]
      [--endpoint URL --model NAME [--stream]]
                                                   Run a workspace headless (model.ts, or an OpenAI-compatible
                                                   endpoint); exit 0 on final_answer, 3 when a breakpoint paused it
  replay LOG [--summary] [--json] [--tools FILE]   Replay a logged session and report anomalies
  eval WORKSPACE.json [--json] [--junit FILE] [--shard K/N] [--concurrency N]
                                                   Run the workspace's eval cases; exit 1 when any fails
  diff A B [--json]                                Compare two sessions or logged conversations turn by turn;
                                                   exit 1 when they differ
  export-code WORKSPACE.json [--endpoint URL] [--model NAME] [--stream] [-o FILE]
                                                   Write the workspace as one runnable TypeScript loop
  export-test SESSION.json [-o FILE]               Write a Vitest test replaying the session's model outputs

Run "toolstep <command> --help" for a command's options, "toolstep --version" for the version.
`

/** Dispatches to a command; resolves with the process exit code. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case 'parse': {
      const { parseCommand } = await import('./commands/parse')
      return parseCommand(rest, io)
    }
    case 'run': {
      const { runCommand } = await import('./commands/run')
      return runCommand(rest, io)
    }
    case 'eval': {
      const { evalCommand } = await import('./commands/eval')
      return evalCommand(rest, io)
    }
    case 'diff': {
      const { diffCommand } = await import('./commands/diff')
      return diffCommand(rest, io)
    }
    case 'replay': {
      const { replayCommand } = await import('./commands/replay')
      return replayCommand(rest, io)
    }
    case 'export-code':
    case 'export-test': {
      const { exportCommand } = await import('./commands/export')
      return exportCommand(command, rest, io)
    }
    case '--version':
    case '-V':
    case 'version':
      io.stdout(`toolstep ${VERSION}\n`)
      return 0
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      io.stdout(USAGE)
      return command === undefined ? 2 : 0
    default:
      io.stderr(`toolstep: unknown command "${command}".\n\n${USAGE}`)
      return 2
  }
}
