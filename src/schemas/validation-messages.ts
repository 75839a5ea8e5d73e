// Turns ajv errors into the contract's 422 messages: one sentence per problem, naming the
// parameter and, for closed sets, its allowed values.
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';

const TYPE_NAMES: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a single string (not repeated)',
  boolean: 'true or false',
  object: 'a form or JSON object',
  array: 'a list',
};

function fieldOf(error: FastifySchemaValidationError): string {
  if (error.keyword === 'required') return String(error.params.missingProperty);
  const path = error.instancePath.replace(/^\//, '').split('/')[0];
  return path === '' ? 'body' : path.replace(/~1/g, '/').replace(/~0/g, '~');
}

function sentence(field: string, error: FastifySchemaValidationError): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `The ${field} field is required.`;
    case 'enum':
      return `The ${field} must be one of: ${(params.allowedValues as unknown[]).join(', ')}.`;
    case 'type':
      return `The ${field} must be ${TYPE_NAMES[String(params.type)] ?? `of type ${String(params.type)}`}.`;
    case 'minimum':
      return `The ${field} must be at least ${String(params.limit)}.`;
    case 'maximum':
      return `The ${field} must be at most ${String(params.limit)}.`;
    case 'minLength':
      return `The ${field} must be at least ${String(params.limit)} characters.`;
    case 'maxLength':
      return `The ${field} must be at most ${String(params.limit)} characters.`;
    default:
      return `The ${field} is invalid: ${error.message ?? 'it does not match the schema'}.`;
  }
}

export function validationMessages(errors: readonly FastifySchemaValidationError[]): Record<string, string[]> {
  const byField: Record<string, string[]> = {};
  for (const error of errors) {
    const field = fieldOf(error);
    const message = sentence(field, error);
    const list = (byField[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return byField;
}
