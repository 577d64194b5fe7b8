/**
 * The importer registry: every dialect `importLog` reads, and auto-detection over them.
 * To add a dialect, write an `Importer` in its own module and list it here.
 */
import { anthropicMessagesImporter } from './anthropic-messages'
import { anthropicStreamImporter } from './anthropic-stream'
import { langfuseImporter } from './langfuse'
import { openaiConversationsImporter, openaiJsonlImporter, openaiMessagesImporter } from './openai-chat'
import { openaiResponsesImporter } from './openai-responses'
import { openaiResponsesStreamImporter } from './openai-responses-stream'
import { openaiStreamImporter } from './openai-stream'
import { openInferenceImporter, otelGenAiImporter } from './otel-spans'
import { toolstepSessionImporter } from './toolstep-session'
import type { Detection, Importer, LogDocument, LogFormat } from './types'
import { vercelAiImporter } from './vercel-ai'

/** Importers in tie-break order: the more specific dialects first, plain OpenAI shapes last. */
export const IMPORTERS: readonly Importer[] = [
  toolstepSessionImporter,
  otelGenAiImporter,
  openInferenceImporter,
  langfuseImporter,
  vercelAiImporter,
  anthropicStreamImporter,
  anthropicMessagesImporter,
  openaiResponsesStreamImporter,
  openaiResponsesImporter,
  openaiStreamImporter,
  openaiJsonlImporter,
  openaiMessagesImporter,
  openaiConversationsImporter,
]

/** Below this, a detection only serves a forced format. */
export const MIN_CONFIDENCE = 0.3

/** The importer for a format id. */
export function importerFor(format: LogFormat): Importer {
  const found = IMPORTERS.find((importer) => importer.id === format)
  if (!found) throw new Error(`no importer for ${format}`)
  return found
}

/**
 * Every importer's verdict on a document, most confident first (ties in registry order).
 * Never throws: a detector that trips over odd data counts as "not recognised".
 */
export function detectAll(document: LogDocument): { importer: Importer; detection: Detection }[] {
  const found: { importer: Importer; detection: Detection }[] = []
  for (const importer of IMPORTERS) {
    try {
      const detection = importer.detect(document)
      if (detection) found.push({ importer, detection })
    } catch {
      // Detection looks at a sample and must never fail the import; skip this dialect.
    }
  }
  return found.sort((a, b) => b.detection.confidence - a.detection.confidence)
}
