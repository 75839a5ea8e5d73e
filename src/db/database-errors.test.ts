import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-errors.ts';

const coded = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', coded('ECONNREFUSED')],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('Connection terminated due to connection timeout')],
    ['no free connection in time', new Error('timeout exceeded when trying to connect')],
    ['a query the server never answered', new Error('Query read timeout')],
    ['statement_timeout', coded('57014', 'canceling statement due to statement timeout')],
    ['a server shutting down', coded('57P01', 'terminating connection due to administrator command')],
    ['a connection exception', coded('08006')],
    ['SQLite locked past its busy timeout', coded('SQLITE_BUSY', 'database is locked')],
    ['any of those as a cause', new Error('wrapped', { cause: coded('ECONNRESET') })],
  ])('is true for %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a constraint violation', coded('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', coded('42601')],
    ['a SQLite constraint', coded('SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain bug', new TypeError('undefined is not a function')],
    ['not an error', 'Connection terminated'],
  ])('is false for %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
