import { useTranslation } from 'react-i18next'

/**
 * The page's first paint while the workbench chunk (stores, engine, panels) loads: the same
 * frame as {@link App} — the toolbar row, the editors pane beside the run pane with its view
 * tabs — at the same default sizes, each pane saying it is loading, in the user's language.
 * Nothing in it is interactive and it carries none of the app's test ids: they appear with the
 * real controls.
 */
export function AppFrame() {
  const { t } = useTranslation()
  return (
    <div data-testid="app-frame" aria-busy="true" className="flex h-screen flex-col overflow-hidden bg-slate-100 text-slate-900">
      <header className="flex flex-nowrap items-center gap-2 border-b border-slate-200 bg-slate-900 px-3 py-2 text-white">
        <div className="mr-1 flex shrink-0 items-baseline gap-2">
          <span className="text-lg font-bold tracking-tight">Toolstep</span>
        </div>
        {/* Placeholders of the pickers and step buttons, so the row keeps its height and place. */}
        <span className="h-7 w-60 rounded border border-slate-700 bg-slate-800" />
        <span className="h-7 w-40 rounded border border-slate-700 bg-slate-800" />
        <span role="status" className="ml-2 text-xs text-slate-400">{t('appFrame.loading')}</span>
      </header>
      <main className="flex min-h-0 min-w-0 flex-1">
        <section aria-label={t('app.editors')} className="h-full min-h-0 w-[38%] min-w-[260px] border-r border-slate-200 bg-white">
          <div className="p-4 text-sm text-slate-500">{t('editorPanel.loadingEditor')}</div>
        </section>
        <section aria-label={t('toolbar.run')} className="flex h-full min-h-0 min-w-0 flex-1 flex-col">
          <div className="flex items-end gap-1 border-b border-slate-200 bg-slate-50 px-2 pt-1 text-sm">
            {(['loop', 'parse', 'evals', 'compare'] as const).map((view, index) => (
              <span key={view} className={`rounded-t px-3 py-1 ${index === 0 ? 'border border-b-white border-slate-200 bg-white font-medium' : 'text-slate-500'}`}>
                {t(`app.tab.${view}`)}
              </span>
            ))}
          </div>
          <div className="p-6 text-sm text-slate-500">{t('appFrame.loading')}</div>
        </section>
      </main>
    </div>
  )
}
