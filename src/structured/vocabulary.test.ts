import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveVocabulary, formatVocabulary, SCHEMA_ORG_INDEX, SCHEMA_ORG_SOURCE } from '../../scripts/schema-org-vocabulary.mjs';
import { SCHEMA_ORG_VERSION, schemaOrg } from './vocabulary.ts';

describe('the schema.org index', () => {
  it('is what the script derives from the release file, byte for byte', () => {
    const index = deriveVocabulary(JSON.parse(readFileSync(SCHEMA_ORG_SOURCE, 'utf8')));
    expect(readFileSync(SCHEMA_ORG_INDEX, 'utf8')).toBe(formatVocabulary(index));
    // Release 30.0's schema.org terms; the data types are typed both rdfs:Class and schema:DataType
    // in the file, and still count as classes.
    expect(index.version).toBe(SCHEMA_ORG_VERSION);
    expect(Object.keys(index.classes)).toHaveLength(933);
    expect(Object.keys(index.properties)).toHaveLength(1521);
    expect(Object.keys(index.members)).toHaveLength(533);
  });

  it('keeps core and pending terms, drops attic terms, other vocabularies and references to dropped terms', () => {
    const ref = (name: string) => ({ '@id': name.includes(':') ? name : `schema:${name}` });
    const partOf = (section: string) => ({ 'schema:isPartOf': { '@id': `https://${section}.schema.org` } });
    const index = deriveVocabulary({
      '@graph': [
        { '@id': 'schema:Thing', '@type': 'rdfs:Class' },
        { '@id': 'schema:Gadget', '@type': 'rdfs:Class', 'rdfs:subClassOf': [ref('Thing'), ref('ex:Device')], ...partOf('pending') },
        { '@id': 'schema:OldGadget', '@type': 'rdfs:Class', 'rdfs:subClassOf': ref('Thing'), ...partOf('attic') },
        { '@id': 'ex:Device', '@type': 'rdfs:Class' },
        { '@id': 'schema:Text', '@type': ['schema:DataType', 'rdfs:Class'] },
        { '@id': 'schema:Slug', '@type': 'rdfs:Class', 'rdfs:subClassOf': ref('Text') },
        { '@id': 'schema:Enumeration', '@type': 'rdfs:Class', 'rdfs:subClassOf': ref('Thing') },
        { '@id': 'schema:Colour', '@type': 'rdfs:Class', 'rdfs:subClassOf': ref('Enumeration') },
        { '@id': 'schema:Red', '@type': 'schema:Colour' },
        {
          '@id': 'schema:colour',
          '@type': 'rdf:Property',
          'schema:domainIncludes': [ref('OldGadget'), ref('Gadget')],
          'schema:rangeIncludes': [ref('Text'), ref('Colour')],
        },
        { '@id': 'schema:oldColour', '@type': 'rdf:Property', 'schema:domainIncludes': ref('Gadget'), ...partOf('attic') },
      ],
    });
    expect(index).toEqual({
      classes: { Thing: [], Gadget: ['Thing'], Text: [], Slug: ['Text'], Enumeration: ['Thing'], Colour: ['Enumeration'] },
      dataTypes: ['Slug', 'Text'],
      members: { Red: ['Colour'] },
      properties: { colour: { domains: ['Gadget'], ranges: ['Colour', 'Text'] } },
      version: '30.0',
    });
  });
});

describe('schemaOrg, the vocabulary of release 30.0', () => {
  it('knows its classes, case-sensitively, and nothing else', () => {
    expect(schemaOrg.version).toBe('30.0');
    expect(schemaOrg.isClass('Product')).toBe(true);
    expect(schemaOrg.isClass('Text')).toBe(true);
    for (const unknown of ['Prodcut', 'product', 'schema:Product', 'https://schema.org/Product', 'constructor', '__proto__', 'price']) {
      expect(schemaOrg.isClass(unknown), unknown).toBe(false);
    }
    expect(schemaOrg.isProperty('price')).toBe(true);
    expect(schemaOrg.isProperty('colour')).toBe(false);
    expect(schemaOrg.isProperty('toString')).toBe(false);
  });

  it('leaves attic terms unknown', () => {
    // variablesMeasured is in 30.0's attic (the release's "all" files); variableMeasured replaced it.
    expect(schemaOrg.isProperty('variablesMeasured')).toBe(false);
    expect(schemaOrg.isProperty('variableMeasured')).toBe(true);
    expect(schemaOrg.isClass('StupidType')).toBe(false);
    // The file names DeliveryTimeSettings in domains without defining it: unknown, and left out of them.
    expect(schemaOrg.isClass('DeliveryTimeSettings')).toBe(false);
    expect(schemaOrg.domains('deliveryTime')).toEqual(['OfferShippingDetails']);
  });

  it('gives every ancestor by subClassOf, the same set each time', () => {
    const ancestors = schemaOrg.ancestors('LocalBusiness');
    for (const ancestor of ['LocalBusiness', 'Organization', 'Place', 'Thing']) expect(ancestors.has(ancestor), ancestor).toBe(true);
    expect(ancestors.has('Product')).toBe(false);
    expect(schemaOrg.ancestors('LocalBusiness')).toBe(ancestors);
    expect(schemaOrg.ancestors('Prodcut').size).toBe(0);
    expect(schemaOrg.isSubclassOf('Restaurant', 'LocalBusiness')).toBe(true);
    expect(schemaOrg.isSubclassOf('Product', 'Product')).toBe(true);
    expect(schemaOrg.isSubclassOf('Organization', 'LocalBusiness')).toBe(false);
    expect(schemaOrg.isSubclassOf('Prodcut', 'Thing')).toBe(false);
  });

  it('gives domains and ranges', () => {
    expect(schemaOrg.domains('startDate')).toContain('Event');
    expect(schemaOrg.domains('startDate')).not.toContain('Product');
    expect(schemaOrg.ranges('price')).toEqual(['Number', 'Text']);
    expect(schemaOrg.ranges('availability')).toEqual(['ItemAvailability']);
    expect(schemaOrg.ranges('offers')).toEqual(['Demand', 'Offer']);
    expect(schemaOrg.ranges('startDate')).toEqual(['Date', 'DateTime']);
    expect(schemaOrg.domains('colour')).toEqual([]);
    expect(schemaOrg.ranges('colour')).toEqual([]);
  });

  it('knows the data types as the release marks them', () => {
    const dataTypes = ['Text', 'URL', 'Number', 'Integer', 'Float', 'Boolean', 'Date', 'DateTime', 'Time', 'DataType'];
    for (const dataType of [...dataTypes, 'PronounceableText', 'CssSelectorType', 'XPathType']) {
      expect(schemaOrg.isDataType(dataType), dataType).toBe(true);
    }
    // 30.0 types Quantity schema:DataType ("instances ... are strings like '3 kg'"), so its subclasses are data types too.
    for (const quantity of ['Quantity', 'Duration', 'Distance', 'Energy', 'Mass']) {
      expect(schemaOrg.isDataType(quantity), quantity).toBe(true);
    }
    for (const other of ['Product', 'Thing', 'Enumeration', 'QuantitativeValue', 'text', 'Prodcut']) {
      expect(schemaOrg.isDataType(other), other).toBe(false);
    }
  });

  it('knows enumerations and their members, members of subclasses included', () => {
    expect(schemaOrg.isEnumeration('ItemAvailability')).toBe(true);
    expect(schemaOrg.isEnumeration('MedicalSpecialty')).toBe(true);
    expect(schemaOrg.isEnumeration('Enumeration')).toBe(true);
    for (const other of ['Product', 'Boolean', 'InStock', 'Prodcut']) expect(schemaOrg.isEnumeration(other), other).toBe(false);

    expect(schemaOrg.isMemberOf('InStock', 'ItemAvailability')).toBe(true);
    expect(schemaOrg.isMemberOf('InStock', 'Enumeration')).toBe(true);
    for (const notMember of ['in stock', 'instock', 'https://schema.org/InStock', 'NewCondition', 'ItemAvailability']) {
      expect(schemaOrg.isMemberOf(notMember, 'ItemAvailability'), notMember).toBe(false);
    }
    expect(schemaOrg.isMemberOf('InStock', 'OfferItemCondition')).toBe(false);
    // Dermatology is a MedicalSpecialty, a subclass of Specialty; Radiography has two types.
    expect(schemaOrg.isMemberOf('Dermatology', 'Specialty')).toBe(true);
    expect(schemaOrg.isMemberOf('Radiography', 'MedicalSpecialty')).toBe(true);
    expect(schemaOrg.isMemberOf('Radiography', 'MedicalImagingTechnique')).toBe(true);
    // True and False are Boolean's individuals, though Boolean is a data type and no enumeration.
    expect(schemaOrg.isMemberOf('True', 'Boolean')).toBe(true);
  });
});
