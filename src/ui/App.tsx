import { useEffect, useState, type DragEvent } from 'react'
import { useFork, useParseLab, usePlayground, useReplay, useRun } from './playground-context'
import type { ImportOutcome } from '../store/import-controller'

import { AnomalyCatalogueDialog } from './anomalies/AnomalyCatalogue'
import { ConfirmDialog } from './ConfirmDialog'
import { EditorPanel } from './EditorPanel'
import { Inspector } from './inspector/Inspector'
import { ParseLab } from './ParseLab'
import { DiffView } from './diff/DiffView'
import { ReplayBar } from './ReplayBar'
import { ConversationList } from './replay/ConversationList'
import { ImportProgress } from './replay/ImportProgress'
import { SessionNotices } from './SessionNotices'
import { StatusBar } from './StatusBar'
import { Timeline } from './timeline/Timeline'
import { Toolbar } from './Toolbar'

/** The playground: editors on the left, timeline and inspector on the right. */
export function App() {
  const pg = usePlayground()
  const events = useRun((s) => s.events)
  const cursor = useRun((s) => s.cursor)
  const [toast, setToast] = useState<ImportOutcome | null>(null)
  const [dragging, setDragging] = useState(false)
  const view = useParseLab((s) => s.view)
  const setView = useParseLab((s) => s.setView)
  const replayFile = useReplay((s) => s.fileName)
  const logOpen = useReplay((s) => s.conversations.length > 0)
  const fork = useFork((s) => s.logged !== null)

  useEffect(() => {
    if (!toast) return
    const timer = setTimeout(() => setToast(null), toast.ok ? 4000 : 9000)
    return () => clearTimeout(timer)
  }, [toast])

  useEffect(() => pg.start(), [pg])

  // Run or Step from the Parse lab brings the timeline back into view.
  useEffect(() => {
    if (events.length > 0 && pg.stores.parseLab.getState().view === 'parse') setView('loop')
  }, [events.length, setView])
  useEffect(() => {
    if (!fork && view === 'diff') setView('loop')
  }, [fork, view, setView])

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
        event.preventDefault()
        void pg.run()
      } else if (event.key === 'F10') {
        event.preventDefault()
        if (event.shiftKey) pg.back()
        else void pg.step()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  function onDrop(event: DragEvent) {
    event.preventDefault()
    setDragging(false)
    const files = [...event.dataTransfer.files]
    if (files.length > 0) void pg.importFiles(files).then(setToast)
  }

  return (
    <div
      className="flex h-screen flex-col overflow-hidden bg-slate-100 text-slate-900"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault()
          setDragging(true)
        }
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false)
      }}
      onDrop={onDrop}
    >
      <Toolbar onImported={setToast} />
      <SessionNotices />
      <ImportProgress />
      <main className={`grid min-h-0 flex-1 grid-cols-1 gap-0 ${logOpen ? 'md:grid-cols-[minmax(280px,30%)_minmax(0,1fr)]' : 'md:grid-cols-[minmax(320px,38%)_minmax(0,1fr)]'}`}>
        <section aria-label="Editors" className="min-h-0 border-r border-slate-200 bg-white">
          <EditorPanel />
        </section>
        <section aria-label="Run" className="flex min-h-0 min-w-0 flex-col">
          <div role="tablist" aria-label="View" className="flex gap-1 border-b border-slate-200 bg-slate-50 px-2 pt-1 text-sm">
            {(fork ? (['loop', 'parse', 'diff'] as const) : (['loop', 'parse'] as const)).map((v) => (
              <button
                key={v}
                role="tab"
                data-testid={`view-${v}`}
                aria-selected={view === v}
                onClick={() => setView(v)}
                className={`rounded-t px-3 py-1 ${view === v ? 'border border-b-white border-slate-200 bg-white font-medium' : 'text-slate-500 hover:text-slate-800'}`}
              >
                {v === 'loop' ? 'Loop' : v === 'parse' ? 'Parse lab' : 'Diff vs log'}
              </button>
            ))}
          </div>
          {view === 'parse' ? (
            <div className="min-h-0 flex-1">
              <ParseLab />
            </div>
          ) : view === 'diff' ? (
            <div className="min-h-0 flex-1">
              <DiffView />
            </div>
          ) : (
            <>
            <StatusBar />
            <ReplayBar />
            <div className={`grid min-h-0 flex-1 grid-cols-1 ${logOpen ? 'lg:grid-cols-[auto_minmax(220px,30%)_minmax(0,1fr)]' : 'lg:grid-cols-[minmax(240px,30%)_minmax(0,1fr)]'}`}>
              {logOpen && (
                <div className="hidden min-h-0 lg:block">
                  <ConversationList key={replayFile ?? ''} />
                </div>
              )}
              <div className="min-h-0 border-r border-slate-200 bg-white">
                <Timeline events={events} cursor={cursor} onSelect={(i) => pg.stores.run.getState().setCursor(i)} />
              </div>
              <div className="min-h-0 bg-slate-50">
                {cursor >= 0 ? (
                  <Inspector events={events} cursor={cursor} />
                ) : (
                  <div className="p-6 text-sm text-slate-500">Select a timeline item to inspect the raw model output, the parsed calls, validation, tool results and backfill.</div>
                )}
              </div>
            </div>
            </>
          )}
        </section>
      </main>
      <ConfirmDialog />
      <AnomalyCatalogueDialog />
      {dragging && (
        <div className="pointer-events-none fixed inset-0 z-40 flex items-center justify-center bg-sky-900/30">
          <div className="rounded-lg border-2 border-dashed border-white bg-sky-700/80 px-8 py-6 text-lg font-medium text-white">
            Drop a session, workspace, OpenAI messages log or tools file
          </div>
        </div>
      )}
      {toast && (
        <div
          role={toast.ok ? 'status' : 'alert'}
          data-testid="toast"
          className={`fixed bottom-4 right-4 z-50 max-w-lg rounded-md px-4 py-3 text-sm shadow-lg ${toast.ok ? 'bg-slate-900 text-white' : 'bg-red-700 text-white'}`}
        >
          <div className="flex items-start gap-3">
            <span className="whitespace-pre-wrap">{toast.message}</span>
            <button aria-label="Dismiss" className="opacity-70 hover:opacity-100" onClick={() => setToast(null)}>
              ✕
            </button>
          </div>
        </div>
      )}
    </div>
  )
}
