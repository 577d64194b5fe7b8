/** Argument checking and tool lookup, with problems phrased for the model. */
export { validateArguments } from './validate-arguments'
export { resolveTool, unknownToolMessage, type ToolCollection } from './resolve-tool'
export { resolveToolName, editDistance, MAX_FUZZY_DISTANCE, type Resolution, type ResolvedName } from './resolve-name'
export { prepareArguments, type ArgumentPolicy, type PreparedArguments } from './prepare-arguments'
