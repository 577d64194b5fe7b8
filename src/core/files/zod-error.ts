import type { z } from 'zod'

/** One line per issue, each led by the JSON path of the bad field (`events[3].type: …`). */
export function formatZodError(error: z.ZodError, limit = 5): string {
  const lines = error.issues.slice(0, limit).map((issue) => `${formatPath(issue.path)}: ${issue.message}`)
  const more = error.issues.length > limit ? ` (and ${error.issues.length - limit} more)` : ''
  return lines.join('; ') + more
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)'
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '')
}
