/**
 * What the validate phase says about a call's arguments, as phrases: a key of
 * {@link VALIDATION_TEXT} and its parameters. Each problem, coercion and warning keeps its
 * English string (what the model is told, what the CLI prints; rendered from this table) and the
 * verdict carries the phrases beside them, which the UI translates (`core.validation.<key>`).
 * Field paths, values, tool names and JSON stay verbatim as parameters.
 */
import { phrase, renderPhrase, type CatalogueKey, type Phrase, type PhraseParams } from '../util/phrase'

/** English templates (i18next syntax: `{{param}}`). */
export const VALIDATION_TEXT = {
  schemaInvalid: 'the input schema of tool "{{name}}" is invalid ({{error}}), so its arguments cannot be checked',
  argumentsTooDeep: 'arguments are nested deeper than {{limit}} levels, more than can be checked',
  subjectArguments: 'arguments',
  subjectPath: '"{{path}}"',
  required: '"{{path}}" is required',
  unknownArgument: 'unknown argument "{{path}}"',
  oneOf: '{{subject}} must be one of: {{values}}',
  mustBe: '{{subject}} must be {{value}}',
  compare: '{{subject}} must be {{comparison}} {{limit}}',
  minLength_one: '{{subject}} must be at least {{limit}} character long',
  minLength_other: '{{subject}} must be at least {{limit}} characters long',
  maxLength_one: '{{subject}} must be at most {{limit}} character long',
  maxLength_other: '{{subject}} must be at most {{limit}} characters long',
  minItems_one: '{{subject}} must have at least {{limit}} item',
  minItems_other: '{{subject}} must have at least {{limit}} items',
  maxItems_one: '{{subject}} must have at most {{limit}} item',
  maxItems_other: '{{subject}} must have at most {{limit}} items',
  pattern: '{{subject}} must match the pattern {{pattern}}',
  manyShapes: '{{subject}} matches more than one of the allowed shapes',
  noShape: '{{subject}} does not match any of the allowed shapes',
  /** Another JSON Schema keyword: Ajv's own (English) message. */
  otherRule: '{{subject}} {{message}}',
  failsRule: '{{subject}} fails the "{{keyword}}" rule',
  encodedWanted: '{{subject}} is a JSON-encoded {{container}}; send the {{container}} itself',
  encodedOther: '{{subject}} must be {{types}}, got a JSON-encoded {{container}} in a string',
  typeOnly: '{{subject}} must be {{types}}',
  typeGot: '{{subject}} must be {{types}}, got {{got}}',
  /** What was received: a JSON type name (a `kind…` phrase) and the value as is. */
  gotValue: '{{type}} {{value}}',
  /** JSON type names as the model reads them, after "got" and in "a JSON-encoded …". */
  kindString: 'string',
  kindNumber: 'number',
  kindBoolean: 'boolean',
  kindObject: 'object',
  kindArray: 'array',
  typeString: 'a string',
  typeInteger: 'an integer',
  typeNumber: 'a number',
  typeBoolean: 'a boolean',
  typeObject: 'an object',
  typeArray: 'an array',
  typeNull: 'null',
  typeOtherA: 'a {{type}}',
  typeOtherAn: 'an {{type}}',
  typeValid: 'valid',
  listComma: '{{head}}, {{tail}}',
  listOr: '{{head}} or {{last}}',
  // The argument policy.
  droppedBoth: 'dropped "{{key}}": both it and "{{target}}" were given',
  droppedUnknown: 'dropped unknown argument "{{key}}"',
  renamed: 'renamed "{{key}}" → "{{target}}"',
  coerced: '"{{key}}": {{from}} → {{to}}',
  unknownArgumentExpected: 'unknown argument "{{key}}" (expected: {{expected}})',
  unknownArgumentNoneExpected: 'unknown argument "{{key}}" (expected: none)',
  // Tool lookup and unread calls.
  unknownTool: 'Unknown tool {{name}}. Available tools: {{tools}}.',
  unknownToolNone: 'Unknown tool {{name}}. No tools are available.',
  argumentsUnread: 'arguments could not be read',
  /** A native call's arguments defect, in the parser's (English) words. */
  argumentsDefect: '{{defect}}',
} as const satisfies Record<string, string>

/** A key of {@link VALIDATION_TEXT}. */
export type ValidationTextKey = CatalogueKey<typeof VALIDATION_TEXT>

/** A phrase of {@link VALIDATION_TEXT}. */
export function validationPhrase(key: ValidationTextKey, params?: PhraseParams): Phrase {
  return phrase(key, params)
}

/** `p` in English. */
export function validationMessage(p: Phrase): string {
  return renderPhrase(p, VALIDATION_TEXT)
}
