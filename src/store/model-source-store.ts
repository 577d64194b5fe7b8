/**
 * Which model a run asks: the workspace's mock script (`model.ts`) or an OpenAI-compatible
 * endpoint, and that endpoint's settings.
 *
 * The API key lives in this slice's memory only, or — when the user ticks "remember for this
 * tab" — in the tab's `sessionStorage` (given as `tabStorage`). It is never written to the
 * playground's own storage (localStorage), and it is not part of the workspace, so no workspace
 * file, session file, export or share link can carry it.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import { createEndpointModel, DEFAULT_ENDPOINT_TIMEOUT_MS, endpointConfigSchema, redactBaseUrl, type EndpointConfig, type EndpointModel } from '../core/endpoint'
import { readItem, writeItem, type KeyValueStorage } from './storage'
import { StoreError, storePhrase } from './messages'

/** `sessionStorage` key of a remembered API key. */
export const TAB_KEY_ITEM = 'toolstep.endpoint.apiKey'

/** Playground storage (localStorage) key of the endpoint settings remembered across reloads. */
export const ENDPOINT_ITEM = 'toolstep.endpoint'

/**
 * What is remembered across reloads: URL, model name, stream, timeout and temperature. Never the
 * key, and not the extra headers either, since a header may carry a credential.
 */
const rememberedSchema = endpointConfigSchema.pick({ baseUrl: true, model: true, stream: true, timeoutMs: true, temperature: true }).partial()

function rememberedConfig(storage: KeyValueStorage | undefined): Partial<EndpointConfig> {
  const text = storage ? readItem(storage, ENDPOINT_ITEM) : null
  if (text === null) return {}
  try {
    const parsed = rememberedSchema.safeParse(JSON.parse(text))
    return parsed.success ? Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined)) : {}
  } catch {
    return {}
  }
}

function remember(storage: KeyValueStorage | undefined, config: EndpointConfig): void {
  if (!storage) return
  const { baseUrl, model, stream, timeoutMs, temperature } = config
  // A failed save (full or disabled storage) only means the fields start empty next time.
  // A password or key inside the URL is a secret like the API key: it is not written down.
  writeItem(storage, ENDPOINT_ITEM, JSON.stringify({ baseUrl: redactBaseUrl(baseUrl).url, model, stream, timeoutMs, temperature }))
}

export type ModelSource = 'mock' | 'endpoint'

export interface ModelSourceState {
  source: ModelSource
  config: EndpointConfig
  /** The API key for this tab; empty when none. */
  apiKey: string
  /** Keep the key in the tab's sessionStorage (cleared when the tab closes). */
  rememberKey: boolean
  setSource(source: ModelSource): void
  setConfig(patch: Partial<EndpointConfig>): void
  setApiKey(key: string): void
  setRememberKey(remember: boolean): void
}

/** Defaults: a local Ollama server, streamed, 60 s timeout. */
export const DEFAULT_ENDPOINT_CONFIG: EndpointConfig = { baseUrl: 'http://127.0.0.1:11434/v1', model: '', stream: true, timeoutMs: DEFAULT_ENDPOINT_TIMEOUT_MS }

/**
 * The model-source slice. `tabStorage` is the browser's sessionStorage (only for a key the user
 * asked to remember for the tab); `storage` is the playground's own (localStorage), where the
 * endpoint's URL, model name and options — never the key — are remembered across reloads.
 * Memory-only without them.
 */
export function createModelSourceStore(tabStorage?: KeyValueStorage, storage?: KeyValueStorage): StoreApi<ModelSourceState> {
  const remembered = tabStorage ? readItem(tabStorage, TAB_KEY_ITEM) : null
  return createStore<ModelSourceState>()((set, get) => ({
    source: 'mock',
    config: { ...DEFAULT_ENDPOINT_CONFIG, ...rememberedConfig(storage) },
    apiKey: remembered ?? '',
    rememberKey: remembered !== null,
    setSource: (source) => set({ source }),
    setConfig(patch) {
      set({ config: { ...get().config, ...patch } })
      remember(storage, get().config)
    },
    setApiKey(apiKey) {
      set({ apiKey })
      if (tabStorage && get().rememberKey) writeItem(tabStorage, TAB_KEY_ITEM, apiKey === '' ? null : apiKey)
    },
    setRememberKey(rememberKey) {
      set({ rememberKey })
      if (tabStorage) writeItem(tabStorage, TAB_KEY_ITEM, rememberKey && get().apiKey !== '' ? get().apiKey : null)
    },
  }))
}

/**
 * The endpoint model a run should use, or `null` for the mock script. Throws an Error naming
 * the missing field (a {@link StoreError}, translated by the UI) when the endpoint is chosen but
 * its URL or model name is empty.
 */
export function endpointModelFor(state: ModelSourceState): EndpointModel | null {
  if (state.source !== 'endpoint') return null
  if (state.config.baseUrl.trim() === '') throw new StoreError(storePhrase('endpointNoUrl'))
  if (state.config.model.trim() === '') throw new StoreError(storePhrase('endpointNoModel'))
  return createEndpointModel(state.config, state.apiKey ? { apiKey: state.apiKey } : {})
}
