/**
 * Checks a tool call's arguments against the tool's JSON Schema and phrases every problem
 * so it can be written back to the model (`"city" is required`, `"days" must be an integer, got
 * string "3"`).
 *
 * Pure apart from a per-schema cache of compiled validators. Never throws on bad arguments
 * or on a broken schema: both come back as problems.
 */
import Ajv2020 from 'ajv/dist/2020'
import AjvDraft07 from 'ajv'
import type { ErrorObject, ValidateFunction } from 'ajv'
import type { JsonValue } from '../messages'
import type { JsonSchema, ToolSpec } from '../tools/types'
import { errorMessage } from '../util/error-message'
import { MAX_JSON_DEPTH, tooDeep } from '../util/json-walk'
import type { Phrase } from '../util/phrase'
import { validationMessage, validationPhrase as say, type ValidationTextKey } from './validation-text'

/*
 * Ajv options shared by both drafts:
 * - allErrors: the model should hear every problem at once, not fix them one retry at a time;
 * - strict false: real-world schemas (OpenAI tools, hand-written ones) carry keywords Ajv
 *   does not know, such as `title` variants or vendor extensions, and must still compile;
 * - validateFormats false: Ajv ships no formats without ajv-formats, and an unknown `format`
 *   must not make a whole tool unusable;
 * - logger false: core code does not write to the console.
 */
const AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: false, logger: false } as const

type Compiled = { ok: true; validate: ValidateFunction } | { ok: false; error: string }

let ajv2020: Ajv2020 | undefined
let ajv07: AjvDraft07 | undefined
const cache = new WeakMap<JsonSchema, Compiled>()

/** Draft 2020-12 is what `z.toJSONSchema()` emits; older drafts are recognised by `$schema`. */
function isOlderDraft(schema: JsonSchema): boolean {
  const declared = schema['$schema']
  return typeof declared === 'string' && /draft-0[4-7]/.test(declared)
}

function compileWith(ajv: Ajv2020 | AjvDraft07, schema: JsonSchema): ValidateFunction {
  // Compile a copy without `$schema` (Ajv 8 has no draft-04/06 meta-schema, and the draft is
  // already chosen by the instance) and drop it from Ajv's registry right after: the returned
  // function keeps working, two tools may share an `$id`, and edited schemas are not retained.
  const { $schema: _ignored, ...copy } = schema
  try {
    return ajv.compile(copy)
  } finally {
    ajv.removeSchema(copy)
  }
}

function compile(schema: JsonSchema): Compiled {
  const cached = cache.get(schema)
  if (cached) return cached
  let compiled: Compiled
  // Ajv compiles (and its validators check) a schema level by level on the call stack: a schema
  // deeper than the limit is refused before it gets there, as arguments are below.
  const deep = tooDeep(schema, MAX_JSON_DEPTH)
  if (deep !== undefined) {
    compiled = { ok: false, error: `it is ${deep}` }
    cache.set(schema, compiled)
    return compiled
  }
  const draft07First = isOlderDraft(schema)
  try {
    compiled = { ok: true, validate: draft07First ? compileWith(draft07(), schema) : compileWith(draft2020(), schema) }
  } catch (firstError) {
    // OpenAI tool schemas rarely declare `$schema` but may use draft-07 forms (e.g. tuple
    // `items: [...]`) that draft 2020-12 rejects, so try the other draft before giving up.
    try {
      compiled = { ok: true, validate: draft07First ? compileWith(draft2020(), schema) : compileWith(draft07(), schema) }
    } catch {
      compiled = { ok: false, error: errorMessage(firstError) }
    }
  }
  cache.set(schema, compiled)
  return compiled
}

function draft2020(): Ajv2020 {
  ajv2020 ??= new Ajv2020(AJV_OPTIONS)
  return ajv2020
}

function draft07(): AjvDraft07 {
  ajv07 ??= new AjvDraft07(AJV_OPTIONS)
  return ajv07
}

/**
 * Validate `args` against `spec.inputSchema`.
 *
 * @returns Problems phrased for the model, one per finding, deduplicated, in Ajv's order;
 *   `[]` when the arguments are valid. Field paths are written `flights[0].date`. Examples:
 *   `"city" is required`, `"days" must be an integer, got string "3"`,
 *   `"filters" is a JSON-encoded object; send the object itself`, `"unit" must be one of: "c", "f"`,
 *   `unknown argument "foo"` (from `additionalProperties: false`). A schema that does not
 *   compile yields a single problem starting with `the input schema of tool "name" is invalid`;
 *   so does a schema nested deeper than `MAX_JSON_DEPTH` (512) levels, and arguments nested
 *   deeper than that yield `arguments are nested deeper than 512 levels, …` (both are refused
 *   before Ajv, which walks schemas and data on the call stack).
 *
 * Compiled validators are cached per schema object (a `WeakMap`), so pass the same
 * `inputSchema` object each time to avoid recompiling.
 */
export function validateArguments(spec: ToolSpec, args: Record<string, JsonValue>): string[] {
  return argumentProblems(spec, args).map(validationMessage)
}

/**
 * {@link validateArguments} as phrases of `VALIDATION_TEXT` (the same findings, in the same
 * order; `validationMessage` renders each as the string `validateArguments` returns).
 */
export function argumentProblems(spec: ToolSpec, args: Record<string, JsonValue>): Phrase[] {
  const compiled = compile(spec.inputSchema)
  if (!compiled.ok) return [say('schemaInvalid', { name: spec.name, error: compiled.error })]
  // A recursive schema (`$ref` to itself) is checked level by level on the call stack.
  if (tooDeep(args, MAX_JSON_DEPTH) !== undefined) return [say('argumentsTooDeep', { limit: MAX_JSON_DEPTH })]
  if (compiled.validate(args)) return []
  return describeErrors(compiled.validate.errors ?? [], args)
}

/** Turns Ajv errors into model-facing sentences, folding `anyOf`/`oneOf` branch noise into one line. */
function describeErrors(errors: readonly ErrorObject[], args: JsonValue): Phrase[] {
  const combinators = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf')
  const problems = new Map<string, Phrase>()
  for (const error of errors) {
    // Errors from inside a failed anyOf/oneOf branch are reported once, by the combinator.
    const owner = combinators.find((combinator) => combinator !== error && error.schemaPath.startsWith(`${combinator.schemaPath}/`))
    if (owner) continue
    const branches = combinators.includes(error)
      ? errors.filter((branch) => branch.schemaPath.startsWith(`${error.schemaPath}/`))
      : []
    const problem = describe(error, args, branches)
    // Deduplicated by what the model reads: two Ajv errors can say the same sentence.
    const text = validationMessage(problem)
    if (!problems.has(text)) problems.set(text, problem)
  }
  return [...problems.values()]
}

function describe(error: ErrorObject, args: JsonValue, branches: readonly ErrorObject[]): Phrase {
  const segments = pointerSegments(error.instancePath)
  const subject = segments.length === 0 ? say('subjectArguments') : say('subjectPath', { path: formatPath(segments, args) })
  const params = error.params as Record<string, unknown>
  const limit = String(params['limit'])
  switch (error.keyword) {
    case 'required':
      return say('required', { path: formatPath([...segments, String(params['missingProperty'])], args) })
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const key = String(params['additionalProperty'] ?? params['unevaluatedProperty'])
      return say('unknownArgument', { path: formatPath([...segments, key], args) })
    }
    case 'type':
      return typeProblem(subject, typeNames(params['type']), valueAt(segments, args))
    case 'enum':
      return say('oneOf', { subject, values: (Array.isArray(params['allowedValues']) ? params['allowedValues'] : []).map((value) => JSON.stringify(value)).join(', ') })
    case 'const':
      return say('mustBe', { subject, value: String(JSON.stringify(params['allowedValue'])) })
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return say('compare', { subject, comparison: String(params['comparison']), limit })
    case 'minLength':
      return say('minLength', { subject, limit, count: Number(params['limit']) })
    case 'maxLength':
      return say('maxLength', { subject, limit, count: Number(params['limit']) })
    case 'minItems':
      return say('minItems', { subject, limit, count: Number(params['limit']) })
    case 'maxItems':
      return say('maxItems', { subject, limit, count: Number(params['limit']) })
    case 'pattern':
      return say('pattern', { subject, pattern: JSON.stringify(params['pattern']) })
    case 'anyOf':
    case 'oneOf': {
      // The common case is a nullable or union scalar: say "must be string or null".
      const sameSpot = branches.every((branch) => branch.keyword === 'type' && branch.instancePath === error.instancePath)
      if (branches.length > 0 && sameSpot) {
        const types = branches.flatMap((branch) => typeNames((branch.params as Record<string, unknown>)['type']))
        return typeProblem(subject, [...new Set(types)], valueAt(segments, args))
      }
      return say(error.keyword === 'oneOf' && params['passingSchemas'] != null ? 'manyShapes' : 'noShape', { subject })
    }
    default:
      return error.message !== undefined ? say('otherRule', { subject, message: error.message }) : say('failsRule', { subject, keyword: error.keyword })
  }
}

function typeNames(type: unknown): string[] {
  return (Array.isArray(type) ? type : typeof type === 'string' ? type.split(',') : []).map(String)
}

const TYPE_KEYS = { string: 'typeString', integer: 'typeInteger', number: 'typeNumber', boolean: 'typeBoolean', object: 'typeObject', array: 'typeArray', null: 'typeNull' } as const

/** `integer` → `an integer`; `null` stays bare. */
function withArticle(type: string): Phrase {
  if (Object.hasOwn(TYPE_KEYS, type)) return say(TYPE_KEYS[type as keyof typeof TYPE_KEYS])
  return say(/^[aeiou]/.test(type) ? 'typeOtherAn' : 'typeOtherA', { type })
}

/** `an integer`, `a string or null`, `a string, a number or null`. */
function typeList(types: readonly string[]): Phrase {
  const named = types.map(withArticle)
  if (named.length <= 1) return named[0] ?? say('typeValid')
  let head = named[0]!
  for (const next of named.slice(1, -1)) head = say('listComma', { head, tail: next })
  return say('listOr', { head, last: named[named.length - 1]! })
}

/** The JSON Schema type name of a value (`integer` for whole numbers). */
function jsonTypeOf(value: JsonValue): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

/** The phrase naming a JSON type as the model reads it (`string`, `array`, …), which the UI translates. */
const KIND: Readonly<Record<'string' | 'number' | 'boolean' | 'object' | 'array', ValidationTextKey>> = {
  string: 'kindString',
  number: 'kindNumber',
  boolean: 'kindBoolean',
  object: 'kindObject',
  array: 'kindArray',
}

function kindKey(type: string): ValidationTextKey {
  if (type === 'integer') return KIND.number
  return Object.hasOwn(KIND, type) ? KIND[type as keyof typeof KIND] : KIND.object
}

/** At most 40 chars of a value as JSON, for a message. */
function preview(value: JsonValue): string {
  const text = JSON.stringify(value)
  return text.length > 40 ? `${text.slice(0, 39)}…` : text
}

/** The object or array a string holds as JSON, when it holds one. */
function encodedContainer(value: string): 'object' | 'array' | undefined {
  const text = value.trim()
  if (!text.startsWith('{') && !text.startsWith('[')) return undefined
  try {
    const parsed: unknown = JSON.parse(text)
    if (Array.isArray(parsed)) return 'array'
    return typeof parsed === 'object' && parsed !== null ? 'object' : undefined
  } catch {
    return undefined
  }
}

/**
 * A type mismatch naming what was received: `"days" must be an integer, got string "3"`. A
 * string holding the JSON of a wanted object or array says so instead: `"filters" is a
 * JSON-encoded object; send the object itself` (models often double-encode nested values).
 */
function typeProblem(subject: Phrase, wanted: readonly string[], value: JsonValue | undefined): Phrase {
  if (typeof value === 'string') {
    const container = encodedContainer(value)
    if (container !== undefined && wanted.includes(container)) return say('encodedWanted', { subject, container: say(KIND[container]) })
    if (container !== undefined) return say('encodedOther', { subject, types: typeList(wanted), container: say(KIND[container]) })
  }
  if (value === undefined) return say('typeOnly', { subject, types: typeList(wanted) })
  const got = jsonTypeOf(value)
  const shown = got === 'null' ? 'null' : say('gotValue', { type: say(kindKey(got)), value: preview(value) })
  return say('typeGot', { subject, types: typeList(wanted), got: shown })
}

/** The value at a JSON Pointer's segments, or undefined when the path leads nowhere. */
function valueAt(segments: readonly string[], root: JsonValue): JsonValue | undefined {
  let node: JsonValue | undefined = root
  for (const segment of segments) {
    if (Array.isArray(node)) node = node[Number(segment)]
    else if (node !== null && typeof node === 'object' && Object.hasOwn(node, segment)) node = node[segment]
    else return undefined
  }
  return node
}

/** Splits an RFC 6901 JSON Pointer (`/flights/0/date`) into unescaped segments. */
function pointerSegments(pointer: string): string[] {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
}

/**
 * Writes segments as `flights[0].date`. Looks at the actual arguments to tell an array index
 * from an object key that happens to be numeric, which a JSON Pointer cannot.
 */
function formatPath(segments: readonly string[], root: JsonValue): string {
  let text = ''
  let node: JsonValue | undefined = root
  for (const segment of segments) {
    if (Array.isArray(node)) {
      text += `[${segment}]`
      node = node[Number(segment)]
      continue
    }
    // A top-level key is written as is (it is what the model named); deeper odd keys get brackets.
    if (text === '') text = segment
    else text += /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`
    node = node !== null && typeof node === 'object' && Object.hasOwn(node, segment) ? node[segment] : undefined
  }
  return text
}
