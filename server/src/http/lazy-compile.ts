// Route schemas compiled on first use. Fastify compiles every route's validators (Ajv) and
// response serializers (fast-json-stringify) as the route is added: about 1 s of every start on
// a 2-core machine, and megabytes of generated code held for routes an installation may never
// call. Here each one is compiled the first time a request needs it; compileAllSchemas() compiles
// what is left, and the tests call it, so that a schema that cannot compile fails a test rather
// than a request.
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance } from 'fastify';

/** The compilations of one app not done yet. */
export interface LazySchemas {
  /** `compile` deferred: the function returned compiles on its first call (or compileAll). */
  defer<F extends (...args: never[]) => unknown>(compile: () => F, shape?: (lazy: F) => void): F;
  compileAll(): number;
}

export function lazySchemas(): LazySchemas {
  const pending = new Set<() => void>();
  return {
    defer<F extends (...args: never[]) => unknown>(compile: () => F, shape?: (lazy: F) => void): F {
      let compiled: F | null = null;
      let failure: unknown = null;
      const now = (): F => {
        if (compiled !== null) return compiled;
        // A schema that cannot compile fails every call alike, without compiling it again each time.
        if (failure !== null) throw failure;
        pending.delete(now);
        try {
          compiled = compile();
        } catch (error) {
          failure = error;
          throw error;
        }
        return compiled;
      };
      pending.add(now);
      const lazy = ((...args: Parameters<F>) => {
        const fn = now();
        const result = fn(...args);
        // A validator reports its errors on itself: Fastify reads them from the function it was given.
        (lazy as unknown as { errors?: unknown }).errors = (fn as unknown as { errors?: unknown }).errors;
        return result;
      }) as F;
      shape?.(lazy);
      return lazy;
    },
    compileAll() {
      const count = pending.size;
      for (const compile of [...pending]) compile();
      return count;
    },
  };
}

const byApp = new WeakMap<FastifyInstance, LazySchemas>();

/** Fastify's own serializer factory, each route's serializer compiled on its first response. */
export function lazySerializerFactory(schemas: LazySchemas): SerializerSelector.SerializerFactory {
  const factory = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => schemas.defer(() => compile(route));
  };
}

export function rememberLazySchemas(app: FastifyInstance, schemas: LazySchemas): void {
  byApp.set(app, schemas);
}

/** Compiles every validator and serializer of the app not compiled yet; how many. */
export function compileAllSchemas(app: FastifyInstance): number {
  const schemas = byApp.get(app);
  if (!schemas) throw new Error('this app compiles its schemas eagerly');
  return schemas.compileAll();
}
