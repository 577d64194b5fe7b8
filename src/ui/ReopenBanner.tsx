import { useRef } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { usePlayground } from './playground-context'
import { dismissReopen, reopenFiles, useSessionMemory } from './session-memory'
import { pushToast } from './toasts'
import { coreText, fileLabel } from './i18n/text'

/** After a reload: "You were replaying support.json — Reopen", which asks for the file and returns to the same conversation and event. */
export function ReopenBanner() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const reopen = useSessionMemory((s) => s.reopen)
  const input = useRef<HTMLInputElement>(null)
  if (!reopen) return null
  const file = fileLabel(t, reopen.fileName, reopen.fileNamePhrase)
  return (
    <div data-testid="reopen-log" className="flex shrink-0 items-center gap-3 border-b border-sky-200 bg-sky-50 px-3 py-1.5 text-sm text-sky-900">
      <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">
        <Trans i18nKey="banners.reopenText" values={{ file, conversation: reopen.selected + 1, event: reopen.cursor + 1 }} components={{ file: <span className="font-mono font-semibold" /> }} />
      </span>
      <input
        ref={input}
        data-testid="reopen-file"
        type="file"
        // As the toolbar's import: a log of several recorded request/response files is picked again whole.
        accept=".json,.jsonl,.ndjson,.sse,.txt,application/json,text/event-stream,text/plain"
        multiple
        className="hidden"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])]
          e.target.value = ''
          if (files.length > 0) void reopenFiles(pg, files).then((outcome) => pushToast(outcome.ok ? 'notice' : 'error', coreText('store', outcome.phrases)))
        }}
      />
      <button data-testid="reopen-button" className="rounded-md border border-sky-700 bg-sky-600 px-2.5 py-0.5 font-medium text-white hover:bg-sky-700" onClick={() => input.current?.click()}>
        {t('banners.reopen', { file })}
      </button>
      <button aria-label={t('banners.dismiss')} className="opacity-70 hover:opacity-100" onClick={dismissReopen}>
        ✕
      </button>
    </div>
  )
}
