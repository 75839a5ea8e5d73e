import { describe, expect, it, vi } from 'vitest';
import { batchedPerTurn } from './batched-per-turn.ts';
import type { DbExecutor } from '../repositories/executor.ts';

interface Row {
  key: string;
  value: number;
}

const table: Record<string, number> = { a: 1, b: 2, c: 3 };
const dbA = {} as DbExecutor;
const dbB = {} as DbExecutor;

function setUp(read: (keys: string[]) => Promise<Row[]> = async (keys) => rowsFor(keys)) {
  const readMany = vi.fn(async (_db: DbExecutor, keys: string[]) => read(keys));
  return { readMany, lookUp: batchedPerTurn(readMany, (row: Row) => row.key) };
}

function rowsFor(keys: string[]): Row[] {
  return keys.filter((key) => key in table).map((key) => ({ key, value: table[key] }));
}

describe('lookups batched per event-loop turn', () => {
  it('answers the lookups of one turn with one read, each with its own row or undefined', async () => {
    const { readMany, lookUp } = setUp();
    const answers = await Promise.all([lookUp(dbA, 'b'), lookUp(dbA, 'missing'), lookUp(dbA, 'a'), lookUp(dbA, 'b')]);
    expect(answers).toEqual([{ key: 'b', value: 2 }, undefined, { key: 'a', value: 1 }, { key: 'b', value: 2 }]);
    expect(readMany).toHaveBeenCalledTimes(1);
    // a key asked twice is read once
    expect(readMany.mock.calls[0][1]).toEqual(['b', 'missing', 'a']);
  });

  it('reads again in a later turn: nothing is kept between turns', async () => {
    const { readMany, lookUp } = setUp();
    expect(await lookUp(dbA, 'a')).toEqual({ key: 'a', value: 1 });
    table.a = 10;
    try {
      expect(await lookUp(dbA, 'a')).toEqual({ key: 'a', value: 10 });
    } finally {
      table.a = 1;
    }
    expect(readMany).toHaveBeenCalledTimes(2);
  });

  it('never puts lookups on different executors in one read', async () => {
    const { readMany, lookUp } = setUp();
    await Promise.all([lookUp(dbA, 'a'), lookUp(dbB, 'b'), lookUp(dbA, 'c')]);
    expect(readMany.mock.calls.map(([db, keys]) => [db === dbA ? 'A' : 'B', keys])).toEqual([
      ['A', ['a', 'c']],
      ['B', ['b']],
    ]);
  });

  it('does not read until the turn has gathered its lookups', async () => {
    const { readMany, lookUp } = setUp();
    const first = lookUp(dbA, 'a');
    await Promise.resolve();
    expect(readMany).not.toHaveBeenCalled();
    const second = lookUp(dbA, 'b');
    await Promise.all([first, second]);
    expect(readMany).toHaveBeenCalledTimes(1);
  });

  it('fails every lookup of a read that failed, and the next turn reads afresh', async () => {
    let fail = true;
    const { lookUp } = setUp(async (keys) => {
      if (fail) throw new Error('connection lost');
      return rowsFor(keys);
    });
    const results = await Promise.allSettled([lookUp(dbA, 'a'), lookUp(dbA, 'b')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toEqual(new Error('connection lost'));
    fail = false;
    expect(await lookUp(dbA, 'a')).toEqual({ key: 'a', value: 1 });
  });

  it('splits a turn of many keys into reads of at most 500', async () => {
    const { readMany, lookUp } = setUp();
    const keys = Array.from({ length: 1_201 }, (_, index) => `k${index}`);
    const answers = await Promise.all([...keys.map((key) => lookUp(dbA, key)), lookUp(dbA, 'c')]);
    expect(answers.at(-1)).toEqual({ key: 'c', value: 3 });
    expect(answers.slice(0, -1).every((answer) => answer === undefined)).toBe(true);
    expect(readMany.mock.calls.map(([, chunk]) => chunk.length)).toEqual([500, 500, 202]);
  });
});
