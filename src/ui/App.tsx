import { Suspense, useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useCatalogue, useConfirm, useFork, useParseLab, usePlayground, useReplay, useRun } from './playground-context'
import type { ImportOutcome } from '../store/import-controller'
import { coreText } from './i18n/text'
import { EditorPanel } from './EditorPanel'
import { Inspector } from './inspector/Inspector'
import { BreakpointsPanel } from './debug/BreakpointsPanel'
import { ReplayBar } from './ReplayBar'
import { ImportProgress } from './replay/ImportProgress'
import { StatusBar } from './StatusBar'
import { TimelinePane } from './timeline/TimelinePane'
import { PaneDivider, PaneGroup, togglePane } from './layout/Panes'
import { Panel, usePanelRef } from 'react-resizable-panels'
import type { SessionEvent } from '../core/loop'
import { Toolbar } from './Toolbar'
import { Toasts } from './Toasts'
import { pushToast } from './toasts'
import { listenForShortcuts, useHelp } from './shortcuts'
import { OtherTabBanner } from './OtherTabBanner'
import { ReopenBanner } from './ReopenBanner'
import { rememberSession, restoreSession } from './session-memory'
import { SessionNotices } from './SessionNotices'
import { watchOtherTabs } from './other-tabs'
import { useExampleSwitch } from './example-switch'
import { AnomalyCatalogueDialog, CompareView, ConfirmDialog, ConversationList, DiffView, EvalsView, ExampleSwitchDialog, LessonsPanel, ParseLab, ShortcutsHelp } from './lazy-panels'
import { ModelSourceBar } from './ModelSourceBar'
import { LinkNotice } from './teach/LinkNotice'
import { TeachEffects } from './teach/TeachEffects'
import { TeachStrip } from './teach/TeachStrip'
import { useTeach } from './teach/teach-context'

/** A tab's or pane's content while its chunk loads. */
function PanelLoading() {
  const { t } = useTranslation()
  return (
    <div role="status" className="p-6 text-sm text-slate-500">
      {t('appFrame.loadingPanel')}
    </div>
  )
}

/**
 * `children` (a lazy dialog or panel) from the first time `when` holds on, so its chunk loads on
 * first use; it stays mounted afterwards, so a dialog closes (and hands focus back) itself.
 */
function OnFirstUse({ when, children }: { when: boolean; children: ReactNode }) {
  const [used, setUsed] = useState(when)
  if (when && !used) setUsed(true)
  return used ? <Suspense fallback={null}>{children}</Suspense> : null
}

/** An import's outcome as a toast: a failure stays until dismissed. Nothing while the user is being asked. */
function showOutcome(outcome: ImportOutcome): void {
  if (outcome.message !== '') pushToast(outcome.ok ? 'notice' : 'error', coreText('store', outcome.phrases))
}

/** The timeline (phases or conversation) beside the inspector, each resizable and collapsible. */
function LoopPanes({ events, cursor }: { events: SessionEvent[]; cursor: number }) {
  const { t } = useTranslation()
  const timelinePane = usePanelRef()
  return (
    <PaneGroup id="panes-loop" className="min-h-0 min-w-0 flex-1">
      {/* Least sizes in rem, so a larger text size keeps a tool name whole in the timeline and the inspector. */}
      <Panel id="pane-timeline" panelRef={timelinePane} collapsible defaultSize="38%" minSize="12rem" className="h-full min-h-0 bg-white">
        <TimelinePane events={events} cursor={cursor} />
      </Panel>
      <PaneDivider pane={timelinePane} label={t('app.resizeTimeline')} />
      <Panel id="pane-inspector" minSize="16rem" className="h-full min-h-0 bg-slate-50">
        {cursor >= 0 ? (
          <Inspector events={events} cursor={cursor} />
        ) : (
          <div className="p-6 text-sm text-slate-500">{t('app.selectItem')}</div>
        )}
      </Panel>
    </PaneGroup>
  )
}

/** The playground: editors on the left, timeline and inspector on the right, every pane resizable. */
export function App() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const events = useRun((s) => s.events)
  const cursor = useRun((s) => s.cursor)
  const [dragging, setDragging] = useState(false)
  const view = useParseLab((s) => s.view)
  const setView = useParseLab((s) => s.setView)
  const replayFile = useReplay((s) => s.fileName)
  const logOpen = useReplay((s) => s.conversations.length > 0)
  const fork = useFork((s) => s.logged !== null)
  const forkKind = useFork((s) => s.kind)
  const mode = useRun((s) => s.mode)
  const editorsPane = usePanelRef()
  const [editorsCollapsed, setEditorsCollapsed] = useState(false)
  const editorsHidden = useTeach((s) => s.editorsHidden)
  // Presenter mode gives the timeline, narration and diagram the room: the model source and the
  // breakpoint list are authoring tools, out of the way while teaching.
  const presenter = useTeach((s) => s.presenter)
  const lessonsOpen = useTeach((s) => s.panelOpen)
  const confirming = useConfirm((s) => s.pending !== null)
  const catalogueOpen = useCatalogue((s) => s.code !== null)
  const helpOpen = useHelp((s) => s.open)
  const switching = useExampleSwitch((s) => s.pending !== null)

  // A replay needs room for the log, not the code: the editors fold away, and come back for a fork.
  useEffect(() => {
    if (mode === 'replay') editorsPane.current?.collapse()
  }, [mode, editorsPane])
  useEffect(() => {
    if (fork) editorsPane.current?.expand()
  }, [fork, editorsPane])


  // Presenter mode folds the editors away so the timeline, inspector and diagram fill the screen.
  // Only on a change: the pane's own saved state holds at start-up.
  const presenterEditors = useRef(editorsHidden)
  useEffect(() => {
    if (presenterEditors.current === editorsHidden) return
    presenterEditors.current = editorsHidden
    if (editorsHidden) editorsPane.current?.collapse()
    else editorsPane.current?.expand()
  }, [editorsHidden, editorsPane])

  useEffect(() => pg.start(), [pg])

  // Run or Step from the Parse lab brings the timeline back into view.
  useEffect(() => {
    if (events.length > 0 && pg.stores.parseLab.getState().view === 'parse') setView('loop')
  }, [events.length, setView])
  useEffect(() => {
    if (!fork && view === 'diff') setView('loop')
  }, [fork, view, setView])

  useEffect(() => listenForShortcuts(pg), [pg])
  useEffect(() => watchOtherTabs(), [])
  useEffect(() => {
    restoreSession(pg)
    return rememberSession(pg)
  }, [pg])

  function onDrop(event: DragEvent) {
    event.preventDefault()
    setDragging(false)
    const files = [...event.dataTransfer.files]
    if (files.length > 0) void pg.importFiles(files).then(showOutcome)
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
      <Toolbar onImported={showOutcome} />
      {!presenter && <ModelSourceBar />}
      <SessionNotices />
      <LinkNotice />
      <TeachEffects />
      <OtherTabBanner />
      <ReopenBanner />
      <Toasts />
      <ImportProgress />
      <main className="flex min-h-0 min-w-0 flex-1">
        <OnFirstUse when={lessonsOpen}>
          <LessonsPanel />
        </OnFirstUse>
        <PaneGroup id="panes-main" className="min-h-0 min-w-0 flex-1">
          <Panel
            id="pane-editors"
            panelRef={editorsPane}
            collapsible
            defaultSize="38%"
            minSize={260}
            onResize={(size) => setEditorsCollapsed(size.inPixels < 1)}
            className="h-full min-h-0 bg-white"
          >
            <section aria-label={t('app.editors')} className="h-full min-h-0">
              <EditorPanel />
            </section>
          </Panel>
          <PaneDivider pane={editorsPane} label={t('app.resizeEditors')} />
          <Panel id="pane-run" minSize={320} className="h-full min-h-0">
            <section aria-label={t('toolbar.run')} className="flex h-full min-h-0 min-w-0 flex-col">
              <div role="tablist" aria-label={t('app.view')} className="flex items-end gap-1 border-b border-slate-200 bg-slate-50 px-2 pt-1 text-sm">
                <button
                  data-testid="pane-toggle-editors"
                  aria-expanded={!editorsCollapsed}
                  aria-controls="pane-editors"
                  onClick={() => togglePane(editorsPane)}
                  title={editorsCollapsed ? t('app.showEditors') : t('app.hideEditors')}
                  className="mb-1 mr-1 rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100"
                >
                  {editorsCollapsed ? `▸ ${t('app.editors')}` : `◂ ${t('app.editors')}`}
                </button>
                {(fork ? (['loop', 'parse', 'diff', 'evals', 'compare'] as const) : (['loop', 'parse', 'evals', 'compare'] as const)).map((v) => (
                  <button
                    key={v}
                    role="tab"
                    data-testid={`view-${v}`}
                    aria-selected={view === v}
                    onClick={() => setView(v)}
                    className={`rounded-t px-3 py-1 ${view === v ? 'border border-b-white border-slate-200 bg-white font-medium' : 'text-slate-500 hover:text-slate-800'}`}
                  >
                    {v === 'diff' && forkKind === 'edit' ? t('editContinue.tab') : t(`app.tab.${v}`)}
                  </button>
                ))}
              </div>
              <StatusBar />
              <Suspense fallback={<PanelLoading />}>
              {view === 'parse' ? (
                <div className="min-h-0 flex-1">
                  <ParseLab />
                </div>
              ) : view === 'compare' ? (
                <div className="min-h-0 flex-1 overflow-auto">
                  <CompareView />
                </div>
              ) : view === 'evals' ? (
                <div className="min-h-0 flex-1 overflow-auto">
                  <EvalsView />
                </div>
              ) : view === 'diff' ? (
                <div className="min-h-0 flex-1">
                  <DiffView />
                </div>
              ) : (
                <>
                  <TeachStrip />
                  <ReplayBar />
                  {!presenter && <BreakpointsPanel />}
                  {/* The timeline keeps a usable height (a header and three rows): on a short screen the strip
                      above shrinks and scrolls instead. Presenter text up to 200 % on 720 px caps it just under half the screen (at exactly half, the strip at its least height pushed the timeline 2 px off screen). */}
                  <div className={`flex flex-1 ${presenter ? 'min-h-[min(12rem,calc(50vh-0.25rem))]' : 'min-h-48'}`}>
                    {logOpen && (
                      <div className="min-h-0 shrink-0">
                        <Suspense fallback={null}>
                          <ConversationList key={replayFile ?? ''} />
                        </Suspense>
                      </div>
                    )}
                    <LoopPanes events={events} cursor={cursor} />
                  </div>
                </>
              )}
              </Suspense>
            </section>
          </Panel>
        </PaneGroup>
      </main>
      <OnFirstUse when={confirming}>
        <ConfirmDialog />
      </OnFirstUse>
      <OnFirstUse when={catalogueOpen}>
        <AnomalyCatalogueDialog />
      </OnFirstUse>
      <OnFirstUse when={helpOpen}>
        <ShortcutsHelp />
      </OnFirstUse>
      <OnFirstUse when={switching}>
        <ExampleSwitchDialog />
      </OnFirstUse>
      {dragging && (
        <div className="pointer-events-none fixed inset-0 z-40 flex items-center justify-center bg-sky-900/30">
          <div className="rounded-lg border-2 border-dashed border-white bg-sky-700/80 px-8 py-6 text-lg font-medium text-white">
            {t('app.drop')}
          </div>
        </div>
      )}
    </div>
  )
}
