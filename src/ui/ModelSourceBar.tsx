import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useStore } from 'zustand'
import { usePlayground, useRun } from './playground-context'
import { corePhrase, translate } from './i18n/text'

const field = 'rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs text-slate-900'

/**
 * The *Model* switch: the workspace's mock script or an OpenAI-compatible endpoint (URL,
 * model name, API key, stream). The key is kept in memory, or in this tab's sessionStorage
 * when "remember for this tab" is ticked; it is never saved with the workspace.
 */
export function ModelSourceBar() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const store = pg.stores.modelSource
  const source = useStore(store, (s) => s.source)
  const config = useStore(store, (s) => s.config)
  const apiKey = useStore(store, (s) => s.apiKey)
  const rememberKey = useStore(store, (s) => s.rememberKey)
  const actions = store.getState()
  const canSave = useRun((s) => s.mode === 'live' && s.events.some((e) => e.type === 'model.responded') && s.status !== 'running')
  const [saved, setSaved] = useState<string | null>(null)
  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-100 px-3 py-1 text-xs text-slate-700">
      <label className="flex items-center gap-1">
        <span className="font-medium">{t('modelSource.model')}</span>
        <select data-testid="model-source" className={field} value={source} onChange={(e) => actions.setSource(e.target.value === 'endpoint' ? 'endpoint' : 'mock')}>
          <option value="mock">{t('modelSource.mock')}</option>
          <option value="endpoint">{t('modelSource.endpoint')}</option>
        </select>
      </label>
      {source === 'endpoint' && (
        <>
          <label className="flex items-center gap-1">
            URL
            <input
              data-testid="endpoint-url"
              className={`${field} w-64 font-mono`}
              value={config.baseUrl}
              placeholder="http://127.0.0.1:11434/v1"
              spellCheck={false}
              onChange={(e) => actions.setConfig({ baseUrl: e.target.value })}
            />
          </label>
          <label className="flex items-center gap-1">
            {t('modelSource.modelName')}
            <input data-testid="endpoint-model" className={`${field} w-40 font-mono`} value={config.model} placeholder="qwen3:8b" spellCheck={false} onChange={(e) => actions.setConfig({ model: e.target.value })} />
          </label>
          <label className="flex items-center gap-1" title={t('modelSource.apiKeyHint')}>
            {t('modelSource.apiKey')}
            <input data-testid="endpoint-key" type="password" autoComplete="off" className={`${field} w-36 font-mono`} value={apiKey} placeholder={t('modelSource.none')} onChange={(e) => actions.setApiKey(e.target.value)} />
          </label>
          <label className="flex items-center gap-1" title={t('modelSource.rememberHint')}>
            <input data-testid="endpoint-remember-key" type="checkbox" checked={rememberKey} onChange={(e) => actions.setRememberKey(e.target.checked)} />
            {t('modelSource.remember')}
          </label>
          <label className="flex items-center gap-1" title={t('modelSource.streamHint')}>
            <input data-testid="endpoint-stream" type="checkbox" checked={config.stream} onChange={(e) => actions.setConfig({ stream: e.target.checked })} />
            {t('modelSource.stream')}
          </label>
          <label className="flex items-center gap-1" title={t('modelSource.timeoutHint')}>
            {t('modelSource.timeout')}
            <input
              data-testid="endpoint-timeout"
              type="number"
              min={1}
              className={`${field} w-16`}
              value={Math.round((config.timeoutMs ?? 60_000) / 1000)}
              onChange={(e) => {
                const seconds = Number(e.target.value)
                if (Number.isFinite(seconds) && seconds >= 1) actions.setConfig({ timeoutMs: Math.round(seconds * 1000) })
              }}
            />
          </label>
        </>
      )}
      <button
        data-testid="save-as-mock"
        disabled={!canSave}
        className="ml-auto rounded border border-slate-400 bg-white px-2 py-0.5 font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-40"
        title={t('modelSource.saveHint')}
        onClick={() => {
          const result = pg.saveAsMock()
          setSaved(result.ok ? t('modelSource.saved') : result.phrase ? translate(t, corePhrase('store', result.phrase)) : result.error)
        }}
      >
        {t('modelSource.save')}
      </button>
      {saved && (
        <span data-testid="save-as-mock-status" role="status" className="text-slate-600">
          {saved}
        </span>
      )}
    </div>
  )
}
