/**
 * English words left in the visible UI, for the 简体中文 checks: what is shown, and the tooltips,
 * labels and placeholders read aloud, with content left out (see `CONTENT`).
 */
import type { Page } from '@playwright/test'

/**
 * What may stay English, and why (docs/glossary.md): text that is content, not UI — code and raw
 * model output (`pre`, `code`, `kbd`, monospace, the editors), messages and tool descriptions the
 * user or model wrote (`[data-content]`, the message views) — and SVG titles (the diagram's own
 * labels are checked as text). `[lang="en"]` marks English kept on purpose (a JavaScript error, a
 * file written before phrases existed); the strict check does not skip it.
 */
export const CONTENT = [
  'pre', 'code', 'kbd', 'textarea', 'mark', '.font-mono', '.monaco-editor', 'svg title', '[data-content]',
  '[data-testid="raw-output"]', '[data-testid="parse-text"]', '[data-testid="final-answer"]', '[data-testid="inspector-final-answer"]',
  '[data-testid="message"]', '[data-testid="editor-tools"]', '[data-testid="editor-model"]', '[data-testid="conversation-select"]',
]

/**
 * Tooltips that quote an anomaly's detail: their catalogue title and explanation are checked
 * where the catalogue and the anomaly list show them.
 */
const DETAIL_TOOLTIPS = '[data-testid="anomaly"], [data-testid="card-anomaly"]'

/**
 * Words that are names in every language: the product, wire formats and model families (as the
 * format menus name them), protocol and field identifiers the glossary keeps, units and keys.
 */
export const ALLOWED = new Set([
  'Toolstep', 'JSON', 'Schema', 'XML', 'SSE', 'API', 'URL', 'TTFT', 'README', 'OpenAI', 'Anthropic', 'Mistral', 'Llama', 'Pythonic', 'DeepSeek', 'DSML', 'Granite', 'IBM', 'Qwen', 'Coder',
  'GLM', 'Kimi', 'Harmony', 'gpt', 'oss', 'Cohere', 'Command', 'Phi', 'functools', 'MiniMax', 'Seed', 'OSS', 'InternLM', 'Magistral', 'THINK', 'TOOL', 'CALLS', 'ARGS', 'Hermes',
  'Python', 'token', 'Markdown',
  // The language menu names each language in itself.
  'English',
  // Roles, stop reasons, JSON literals and field names the glossary keeps as they are.
  'tool', 'tools', 'assistant', 'user', 'system', 'error', 'aborted', 'true', 'false', 'null', 'none', 'name', 'schema', 'PENDING', 'RUNNING', 'AWAITING', 'CONFIRMATION', 'COMPLETED',
  // Wire-format ids.
  'json', 'xml', 'tag', 'openai', 'bracket', 'pipe', 'auto', 'mock',
  'sessionStorage', 'localStorage', 'Authorization', 'Bearer', 'Ctrl', 'Shift', 'Enter', 'Esc', 'Space',
  // Tool names of the scenarios without an underscore (tool names stay).
  'calculate', 'think', 'add',
].map((w) => w.toLowerCase()))

/**
 * English words in the visible UI of `root` (default: the whole page), content left out;
 * `keepEnglish` also skips `[lang="en"]` (English deliberately shown as core or a tool said it).
 */
export async function englishIn(page: Page, root = 'body', { keepEnglish = true }: { keepEnglish?: boolean } = {}): Promise<string[]> {
  const content = [...CONTENT, ...(keepEnglish ? ['[lang="en"]'] : [])].join(', ')
  const found = await page.locator(root).first().evaluate((element, [content, detailTooltips]) => {
    const words: string[] = []
    const skip = (el: Element) => el.closest(content) !== null
    // Shown text: a copy without the content parts; innerText skips what is hidden.
    const copy = element.cloneNode(true) as HTMLElement
    copy.querySelectorAll(content).forEach((el) => el.remove())
    document.body.appendChild(copy)
    copy.style.cssText = 'position:absolute;left:-99999px;top:0'
    words.push(copy.innerText)
    copy.remove()
    // Read aloud or shown on hover: titles, labels and placeholders of visible elements.
    for (const el of element.querySelectorAll('[title], [aria-label], [placeholder]')) {
      if (skip(el) || (el as HTMLElement).offsetParent === null) continue
      for (const name of ['title', 'aria-label', 'placeholder']) if (!(name === 'title' && el.matches(detailTooltips))) words.push(el.getAttribute(name) ?? '')
    }
    return words.join('\n')
  }, [content, DETAIL_TOOLTIPS] as const)
  // Markup and literals in a sentence are code, as the resource test reads them: <tags>,
  // [markers], {objects}, "strings" and calls().
  const prose = found.replace(/<[^>\n]*>|\[[^\]\n]*\]|\{[^}\n]*\}|"[^"\n]*"|[\w.]+\(\)?/g, () => ' ')
  // Identifiers (tool names, files, ids, codes, versions) carry a dot, underscore or digit.
  const tokens = prose.match(/[A-Za-z][\w.:/-]*\w|[A-Za-z]/g) ?? []
  return [...new Set(tokens.filter((w) => !/[._\d:/]/.test(w)).flatMap((w) => w.split('-')).filter((w) => w.length >= 3 && !ALLOWED.has(w.toLowerCase())))]
}
