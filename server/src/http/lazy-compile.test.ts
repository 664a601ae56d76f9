// Schemas compiled on first use (lazy-compile.ts): none at start, every one compiles, and a
// validator compiled late behaves as one compiled early (errors, coercion of the root).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, type TestApp } from '../../test/helpers.ts';
import { compileAllSchemas, lazySchemas } from './lazy-compile.ts';

describe('route schemas compiled on first use', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t.close();
  });

  it('a validator compiled at its first request refuses bad input with the envelope and its errors', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'a@b.test' } });
    const body = assertError(res, 400, 'InputException');
    assert.match(body.message, /password/);
    // The same validator again, compiled now: the errors are its own for each call.
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { password: 'x' } });
    assert.match(assertError(again, 400, 'InputException').message, /email/);
  });

  it('every validator and serializer of every route compiles', () => {
    const compiled = compileAllSchemas(t.app);
    // Hundreds are left after the few requests above; then none.
    assert.ok(compiled > 200, `compiled ${compiled}`);
    assert.equal(compileAllSchemas(t.app), 0);
  });
});

describe('lazySchemas', () => {
  it('compiles once, on the first call or compileAll, and keeps the shape given', () => {
    const schemas = lazySchemas();
    let compilations = 0;
    const fn = schemas.defer(
      () => {
        compilations++;
        return Object.assign((n: number) => n > 0, { errors: null as string[] | null });
      },
      (lazy) => Object.assign(lazy, { schemaEnv: { lazy: true } }),
    );
    assert.equal(compilations, 0);
    assert.ok((fn as unknown as { schemaEnv: unknown }).schemaEnv);
    assert.equal(fn(1), true);
    assert.equal(fn(-1), false);
    assert.equal(compilations, 1);
    assert.equal(schemas.compileAll(), 0);
    schemas.defer(() => {
      compilations++;
      return () => true;
    });
    assert.equal(schemas.compileAll(), 1);
    assert.equal(compilations, 2);
  });

  it('a schema that cannot compile fails each call with its error, compiled once', () => {
    const schemas = lazySchemas();
    let compilations = 0;
    const fn = schemas.defer((): (() => boolean) => {
      compilations++;
      throw new Error('schema is invalid');
    });
    assert.throws(() => fn(), /schema is invalid/);
    assert.throws(() => fn(), /schema is invalid/);
    assert.equal(compilations, 1);
    assert.equal(schemas.compileAll(), 0);
  });
});
