#!/usr/bin/env node
// The installed `pagegrade` binary: runs the TypeScript CLI through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
