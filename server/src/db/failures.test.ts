import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDatabaseUnavailable } from './failures.ts';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

test('a failure of the database or the system is one to retry', () => {
  for (const error of [
    withCode('08006'),
    withCode('40001'),
    withCode('40P01'),
    withCode('53300'),
    withCode('57P01'),
    withCode('58030'),
    withCode('ECONNRESET'),
    withCode('ECONNREFUSED'),
    withCode('ENOSPC'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    new Error('driver has already been destroyed'),
  ])
    assert.equal(isDatabaseUnavailable(error), true, String((error as { code?: string }).code ?? error.message));
});

test('a failure of the data is not', () => {
  for (const error of [
    withCode('23505'),
    withCode('23503'),
    withCode('22021'),
    withCode('22P02'),
    withCode('42P01'),
    withCode('FST_ERR_VALIDATION'),
    new TypeError("Cannot read properties of undefined (reading 'x')"),
    new Error('the mail is strange'),
    null,
    undefined,
    'ECONNRESET',
    { code: 8006 },
  ])
    assert.equal(isDatabaseUnavailable(error), false, String(error));
});
