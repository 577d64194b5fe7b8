/**
 * Why a workspace or session file was refused, as phrases: a key of {@link FILE_TEXT} and its
 * parameters (the UI translates `core.file.<key>`; the English is this table and stays the
 * `error` string of a read). zod's own messages are not translated by hand: an issue travels as
 * its JSON (`{{issue, zod}}`) and is worded by zod's locale for the language shown (the message
 * zod made, in English, here; `z.locales.zhCN` / `zhTW` in the UI), so a field path and the expected values stay
 * as zod reports them.
 */
import type { z } from 'zod'
import { phrase, renderPhrase, type CatalogueKey, type Phrase, type PhraseParams } from '../util/phrase'

/** English templates (i18next syntax; `{{issue, zod}}` is worded by zod's locale). */
export const FILE_TEXT = {
  notSession: 'Not a Toolstep session: {{problems}}',
  notWorkspace: 'Not a Toolstep workspace: {{problems}}',
  /** One zod issue: the JSON path of the bad field, then zod's message. */
  issue: '{{path}}: {{issue, zod}}',
  issueAtRoot: '(root): {{issue, zod}}',
  moreIssues: '{{list}} (and {{n}} more)',
  listSemicolon: '{{head}}; {{tail}}',
  seqExpected: 'events[{{gap}}].seq: expected {{gap}}',
  /** A file of another format version (a newer Toolstep's, most likely): said alone, not as the many field errors it would also cause. */
  workspaceVersion: 'This workspace file is format version {{version}}; this Toolstep reads version {{supported}}.',
  sessionVersion: 'This session file is format version {{version}}; this Toolstep reads version {{supported}}.',
} as const satisfies Record<string, string>

/** A key of {@link FILE_TEXT}. */
export type FileTextKey = CatalogueKey<typeof FILE_TEXT>

/** A phrase of {@link FILE_TEXT}. */
export function filePhrase(key: FileTextKey, params?: PhraseParams): Phrase {
  return phrase(key, params)
}

/**
 * A zod issue (as {@link zodIssueJson} wrote it) in the words of a zod locale (`z.locales.zhCN()`
 * …), or, with no locale, zod's message as it was made (English, or a schema's own message).
 * A `custom` issue (a refinement's own message) keeps its message in every language. The
 * issue's JSON itself when it cannot be read. Never throws.
 */
export function wordZodIssue(json: string, locale?: { localeError: (issue: never) => unknown }): string {
  try {
    const issue = JSON.parse(json) as { code?: unknown; message?: unknown }
    const made = typeof issue.message === 'string' ? issue.message : undefined
    if (!locale || issue.code === 'custom') return made ?? json
    const worded = locale.localeError(issue as never)
    const text = typeof worded === 'string' ? worded : typeof worded === 'object' && worded !== null ? (worded as { message?: unknown }).message : undefined
    return typeof text === 'string' ? text : (made ?? json)
  } catch {
    return json
  }
}

/** `p` in English: zod issues with the message zod made. */
export function fileMessage(p: Phrase): string {
  return renderPhrase(p, FILE_TEXT, { zod: (json) => wordZodIssue(json) })
}

/** A stand-in of the same JSON type as `input`: zod's locales name the type received, never the value. */
function standIn(input: unknown): unknown {
  if (input === null || input === undefined) return input
  if (Array.isArray(input)) return []
  switch (typeof input) {
    case 'object':
      return {}
    case 'string':
      return ''
    case 'number':
      return Number.isNaN(input) ? Number.NaN : 0
    case 'boolean':
      return false
    default:
      return null
  }
}

/**
 * What a zod locale needs of an issue, as JSON: its fields and message without nested union
 * errors or the input itself (a stand-in of the input's type keeps "received number" right).
 */
export function zodIssueJson(issue: z.core.$ZodIssue): string {
  const { input, errors: _errors, ...fields } = issue as z.core.$ZodIssue & { input?: unknown; errors?: unknown }
  return JSON.stringify(input === undefined ? fields : { ...fields, input: standIn(input) })
}
