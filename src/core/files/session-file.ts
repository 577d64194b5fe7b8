/**
 * The session file: a workspace plus the event log of one run
 * (`{ "format": "toolstep.session", "version": 1, workspace, events }`).
 * Re-importing it and folding the events gives the identical timeline.
 */
import { jsonText } from '../util/json-walk'
import { z } from 'zod'
import { sessionEventSchema, type SessionEvent } from '../loop/events'
import { FORMAT_VERSION, otherVersion, workspaceSchema, type ReadResult, type Workspace } from './workspace-file'
import { zodErrorPhrase } from './zod-error'
import { fileMessage, filePhrase } from './file-text'
import type { Phrase } from '../util/phrase'
import { parseJsonText } from '../util/text-file'

export const sessionFileSchema = z.object({
  format: z.literal('toolstep.session'),
  version: z.literal(1),
  /** The workspace the run came from; `null` for a replayed foreign log. */
  workspace: workspaceSchema.nullable(),
  events: z.array(sessionEventSchema),
})
export type SessionFile = z.infer<typeof sessionFileSchema>

/** Parses and validates session JSON text, with or without a BOM (already-parsed data is accepted too). Never throws. */
export function readSession(input: string | unknown): ReadResult<SessionFile> {
  let data: unknown = input
  if (typeof input === 'string') {
    const parsed = parseJsonText(input)
    if (!parsed.ok) return parsed
    data = parsed.value
  }
  // reportInput: zod's locales name the type received (only its type is kept, see zodIssueJson).
  const version = otherVersion(data, 'toolstep.session')
  if (version !== undefined) return refused(filePhrase('sessionVersion', { version, supported: FORMAT_VERSION }))
  const parsed = sessionFileSchema.safeParse(data, { reportInput: true })
  if (!parsed.success) return refused(filePhrase('notSession', { problems: zodErrorPhrase(parsed.error) }))
  const gap = parsed.data.events.findIndex((e, i) => e.seq !== i)
  if (gap >= 0) return refused(filePhrase('notSession', { problems: filePhrase('seqExpected', { gap }) }))
  return { ok: true, value: parsed.data }
}

function refused(phrase: Phrase): { ok: false; error: string; phrase: Phrase } {
  return { ok: false, error: fileMessage(phrase), phrase }
}

/** Serialises a session (2-space JSON, trailing newline). */
export function writeSession(workspace: Workspace | null, events: readonly SessionEvent[]): string {
  const file: SessionFile = { format: 'toolstep.session', version: 1, workspace, events: [...events] }
  // Not JSON.stringify: it overflows the stack on arguments nested thousands of levels deep.
  return `${jsonText(file, 2)}\n`
}
