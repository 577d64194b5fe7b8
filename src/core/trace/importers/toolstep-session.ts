/**
 * `toolstep-session`: Toolstep's own session file (`{"format": "toolstep.session", "version": 1,
 * workspace, events}`, see `core/files/session-file.ts`). Recognised here and handed back
 * untouched in `ImportResult.session` for the session-file reader to validate; it yields no
 * conversations of its own.
 */
import { isJsonObject } from '../arguments'
import { BadField } from '../openai-log'
import type { Importer } from './types'
import { recognised, tracePhrase } from '../trace-text'

export const toolstepSessionImporter: Importer = {
  id: 'toolstep-session',
  title: 'Toolstep session file',
  detect(document) {
    return document.kind === 'json' && isJsonObject(document.value) && document.value['format'] === 'toolstep.session' ? { confidence: 1, ...recognised('recogSession') } : undefined
  },
  // Yields nothing: importLog hands the session back whole for the session-file reader.
  *read(document) {
    if (document.kind !== 'json' || !isJsonObject(document.value) || document.value['format'] !== 'toolstep.session') {
      throw new BadField('', tracePhrase('fieldNotSession'))
    }
  },
}
