import type { z } from 'zod'
import type { Phrase } from '../util/phrase'
import { fileMessage, filePhrase, zodIssueJson } from './file-text'

/** One line per issue, each led by the JSON path of the bad field (`events[3].type: …`). */
export function formatZodError(error: z.ZodError, limit = 5): string {
  return fileMessage(zodErrorPhrase(error, limit))
}

/**
 * {@link formatZodError} as a phrase of `FILE_TEXT`: the first `limit` issues joined with `; `,
 * then how many more there are. Each issue keeps its path and its zod data, so the UI words it
 * with zod's locale for its language.
 */
export function zodErrorPhrase(error: z.ZodError, limit = 5): Phrase {
  const issues = error.issues.slice(0, limit).map((issue) =>
    issue.path.length === 0 ? filePhrase('issueAtRoot', { issue: zodIssueJson(issue) }) : filePhrase('issue', { path: formatPath(issue.path), issue: zodIssueJson(issue) }),
  )
  let list: Phrase | undefined
  for (let i = issues.length - 1; i >= 0; i--) list = list ? filePhrase('listSemicolon', { head: issues[i]!, tail: list }) : issues[i]
  const joined = list ?? filePhrase('listSemicolon', { head: '', tail: '' })
  return error.issues.length > limit ? filePhrase('moreIssues', { list: joined, n: error.issues.length - limit }) : joined
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '')
}
