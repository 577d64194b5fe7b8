/** Argument checking and tool lookup, with problems phrased for the model. */
export { validateArguments } from './validate-arguments'
export {
  resolveToolName,
  unknownToolMessage,
  editDistance,
  MAX_FUZZY_DISTANCE,
  type NamedTool,
  type NameMatching,
  type Resolution,
  type ResolvedName,
} from './resolve-tool'
export { prepareArguments, type ArgumentPolicy, type PreparedArguments } from './prepare-arguments'
