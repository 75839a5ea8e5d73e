// The schema.org validation of a page's structured data (docs/structured-data.md): the JSON-LD blocks
// that give no item, then every item with its nested nodes, against the vocabulary's types, the
// properties of those types and the kind of value their ranges expect.
import type { StructuredExtraction, StructuredNode, StructuredProperty, Term, ValidationFinding, Vocabulary } from './structured-types.ts';
import { rangeRule, type RangeRule } from './range-rules.ts';
import { writtenValue } from './value-rules.ts';

/** A node being walked: what it is judged as, and where the walk is in it. */
interface Frame {
  node: StructuredNode;
  /** The property path from the item to the node ('' for the item itself). */
  path: string;
  /** The schema.org types its properties are judged against; null when they are not judged. */
  types: readonly string[] | null;
  /** Its type as findings name it. */
  type: string;
  nextProperty: number;
  children: Child[];
  nextChild: number;
}

interface Child {
  node: StructuredNode;
  path: string;
  /** The class ranges of the property that holds it: the types it takes when it has none. */
  rangeTypes: readonly string[];
}

const termName = (term: Term) => term.schema ?? term.written;

export function validateStructuredData(extraction: StructuredExtraction, vocabulary: Vocabulary, pageUrl: string): ValidationFinding[] {
  const findings: ValidationFinding[] = [...extraction.problems];
  const rules = new Map<string, RangeRule>();
  const ruleOf = (property: string) => {
    let rule = rules.get(property);
    if (rule === undefined) rules.set(property, (rule = rangeRule(property, vocabulary, extraction, pageUrl)));
    return rule;
  };
  const ancestorSets = new Map<string, ReadonlySet<string>>();
  const ancestorsOf = (types: readonly string[]) => {
    const key = types.join(' ');
    let ancestors = ancestorSets.get(key);
    if (ancestors === undefined) ancestorSets.set(key, (ancestors = new Set(types.flatMap((type) => [...vocabulary.ancestors(type)]))));
    return ancestors;
  };
  // Each node once: a node graph may share nodes (microdata itemref) or loop.
  const visited = new Set<StructuredNode>();

  const enter = ({ node, path, rangeTypes }: Child): Frame => {
    let types: readonly string[] | null = rangeTypes.length > 0 ? rangeTypes : null;
    let type = rangeTypes.join(' ');
    if (node.types.length > 0) {
      const schemaTypes = node.types.flatMap((term) => (term.schema === null ? [] : [term.schema]));
      const unknown = schemaTypes.filter((name) => !vocabulary.isClass(name));
      for (const name of unknown) findings.push({ kind: 'unknown_type', format: node.format, type: name, line: node.line });
      // Only other vocabularies' types, or an unknown one: its properties are not judged.
      types = schemaTypes.length > 0 && unknown.length === 0 ? schemaTypes : null;
      type = node.types.map(termName).join(' ');
    }
    return { node, path, types, type, nextProperty: 0, children: [], nextChild: 0 };
  };

  /** Findings of one property of the frame's node, and its nested nodes to walk next. */
  const judgeProperty = (frame: Frame, property: StructuredProperty): Child[] => {
    const name = property.name.schema;
    const path = frame.path === '' ? termName(property.name) : `${frame.path}.${termName(property.name)}`;
    const known = name !== null && vocabulary.isProperty(name);
    if (name !== null && frame.types !== null) {
      const ofType = known && vocabulary.domains(name).some((domain) => ancestorsOf(frame.types!).has(domain));
      if (!ofType) {
        const line = property.values[0]?.line ?? frame.node.line;
        findings.push({ kind: 'unknown_property', format: frame.node.format, type: frame.type, property: path, line });
      } else {
        const rule = ruleOf(name);
        for (const value of property.values) {
          const expected = rule.judge(value);
          if (expected !== null) {
            findings.push({ kind: 'invalid_value', format: frame.node.format, type: frame.type, property: path, value: writtenValue(value), expected, line: value.line });
          }
        }
      }
    }
    const rangeTypes = known ? ruleOf(name).classes : [];
    const children: Child[] = [];
    for (const value of property.values) {
      // A reference stands for a node walked where it is written.
      if (value.kind !== 'node' || value.node.reference || visited.has(value.node)) continue;
      visited.add(value.node);
      children.push({ node: value.node, path, rangeTypes });
    }
    return children;
  };

  for (const item of extraction.items) {
    if (visited.has(item)) continue;
    visited.add(item);
    // Depth first with a stack of its own: microdata nesting has no depth limit.
    const stack: Frame[] = [enter({ node: item, path: '', rangeTypes: [] })];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (frame.nextChild < frame.children.length) stack.push(enter(frame.children[frame.nextChild++]));
      else if (frame.nextProperty < frame.node.properties.length) {
        frame.children = judgeProperty(frame, frame.node.properties[frame.nextProperty++]);
        frame.nextChild = 0;
      } else stack.pop();
    }
  }
  return findings;
}
