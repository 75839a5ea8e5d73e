// Building blocks for the schema of each check's `value` (CheckDefinition.value): JSON schemas, so the
// OpenAPI document can describe every result, and TypeBox types, so the compiler holds each check's
// `run` to its schema. Objects admit no other properties: a test holds real values to that.
import { Type, type TLiteral, type TProperties, type TSchema, type TUnion } from '@sinclair/typebox';

export const Int = Type.Integer;
export const Num = Type.Number;
export const Str = Type.String;
export const Bool = Type.Boolean;
export const Opt = Type.Optional;

/** An object with exactly these properties (optional ones marked with Opt). */
export function Obj<T extends TProperties>(properties: T, description?: string) {
  return Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });
}

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

export function List<T extends TSchema>(item: T, description?: string) {
  return Type.Array(item, description ? { description } : {});
}

/** An object whose keys are open (tag names, user agents...) and whose values all have one schema. */
export function Dict<T extends TSchema>(value: T, description?: string) {
  return Type.Record(Type.String(), value, description ? { description } : {});
}

/** One of a closed set of strings. */
export function OneOf<const T extends string[]>(values: [...T]): TUnion<{ [K in keyof T]: TLiteral<T[K]> }> {
  return Type.Union(values.map((value) => Type.Literal(value))) as never;
}
