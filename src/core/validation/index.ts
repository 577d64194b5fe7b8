/** Argument checking and tool lookup, with problems phrased for the model. */
export { validateArguments, argumentProblems } from './validate-arguments'
export { VALIDATION_TEXT, validationMessage, validationPhrase, type ValidationTextKey } from './validation-text'
export {
  resolveToolName,
  unknownToolMessage,
  unknownToolPhrase,
  editDistance,
  MAX_FUZZY_DISTANCE,
  type NamedTool,
  type NameMatching,
  type Resolution,
  type ResolvedName,
} from './resolve-tool'
export { prepareArguments, type ArgumentPolicy, type PreparedArguments } from './prepare-arguments'
