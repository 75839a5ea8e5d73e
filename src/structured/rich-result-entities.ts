// How rich-result tables reach into an item (docs/structured-data.md, "how an item is judged"): a path
// goes down property by property through present values only, `@id` references standing for the page's
// node of that `@id`, and a plain value where an entity is wanted standing for an entity without properties.
import type { StructuredExtraction, StructuredNode, StructuredValue } from './structured-types.ts';
import { isPresentValue } from './value-rules.ts';

/** What a path reaches: a node (a reference resolved), or null for a plain value standing where an entity was wanted. */
export interface Entity {
  node: StructuredNode | null;
  /** Where a property it lacks is reported: the node's start, or the line of the property holding the plain value. */
  line: number;
  /** The last present value of the property that holds it, as written (the breadcrumb's last ListItem). */
  last: boolean;
}

export function itemEntity(item: StructuredNode): Entity {
  return { node: item, line: item.line, last: false };
}

/** The page's node a reference stands for; the node itself when it is none, or its `@id` is not on the page. */
export function resolved(node: StructuredNode, byId: StructuredExtraction['byId']): StructuredNode {
  return node.reference && node.id !== null ? (byId.get(node.id) ?? node) : node;
}

/** The present values of a schema.org property, from every place it is written on the node, in order. */
export function presentValues(node: StructuredNode | null, name: string): StructuredValue[] {
  if (node === null) return [];
  return node.properties.filter((property) => property.name.schema === name).flatMap((property) => property.values.filter(isPresentValue));
}

/** The schema.org types of an entity ([] for a plain value or an untyped node). */
export function schemaTypes(node: StructuredNode | null): string[] {
  return node === null ? [] : node.types.flatMap((type) => (type.schema === null ? [] : [type.schema]));
}

/** The entities a path of property names reaches from `root`, one per present value at each step. */
export function entitiesAt(root: Entity, path: readonly string[], byId: StructuredExtraction['byId']): Entity[] {
  let entities = [root];
  for (const name of path) {
    entities = entities.flatMap((entity) => {
      const values = presentValues(entity.node, name);
      return values.map((value, index) => entityOf(value, index === values.length - 1, byId));
    });
  }
  return entities;
}

function entityOf(value: StructuredValue, last: boolean, byId: StructuredExtraction['byId']): Entity {
  if (value.kind !== 'node') return { node: null, line: value.line, last };
  const node = resolved(value.node, byId);
  return { node, line: node.line, last };
}
