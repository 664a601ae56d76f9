// The reference point: a bare Fastify app with one JSON route, on the same machine as Parley.
// Every figure of the benchmark is also given as a ratio to this route's requests per second.
// Listens on a free port of 127.0.0.1 and prints it on stdout as "listening <port>".
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ status: 'success', data: { hello: 'world' } }));
// A second reference: a stored answer of Parley's (a page of the assigned list), serialised
// again on every request, so a list's figures can be set against the cost of its bytes alone.
let page: unknown = null;
app.put('/page', async (request) => {
  page = request.body;
  return { status: 'success', data: true };
});
app.get('/page', async (_request, reply) => (page === null ? reply.code(404).send({ status: 'error', message: 'no page stored' }) : page));

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('the bare server has no TCP address');
process.stdout.write(`listening ${address.port}\n`);

const stop = () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
