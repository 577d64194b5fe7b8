/**
 * Public surface of core/evals: eval cases of tool use (assertions, metrics, shards, reports).
 */
export { assertionSchema, evalCaseSchema, evalCasesSchema, ASSERTION_TYPES, type Assertion, type AssertionType, type EvalCase } from './case-schema'
export { callsMade, checkAssertion, flagsOf, partialMatch, stepCount, type AssertionResult, type MadeCall } from './assertions'
export { fnv1a, inShard, parseShard, type Shard } from './shard'
export { evalMetrics, evalReportJson, junitXml, type CaseResult, type EvalMetrics } from './report'
export { runEvalCase, scriptedOutputs, type CaseEnvironment } from './run-case'
