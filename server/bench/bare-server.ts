// The reference points: a bare Fastify app on the same machine as Parley, measured in the same
// run. Each of Parley's figures is set against the floor of what it does:
// - `GET /`: one JSON route, nothing else (what Fastify and the load generator cost);
// - `GET /page`: a stored page of Parley's assigned list, serialised again on every request
//   (what a list page costs in bytes and serialisation alone);
// - `GET /floor/select/:id`: one primary-key SELECT of a message row through `pg` (the floor of a
//   single-record read);
// - `POST /floor/insert`: one INSERT … RETURNING into a table of its own, committed (the floor of
//   a durable write).
// The floors use a `pg` pool as large as Parley's (DATABASE_POOL_SIZE, default 20) and named
// (prepared) statements, as Parley does. Listens on a free port of 127.0.0.1 and prints it on
// stdout as "listening <port>".
import Fastify from 'fastify';
import pg from 'pg';

const databaseUrl = process.env.FLOOR_DATABASE_URL;
const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.FLOOR_POOL_SIZE ?? 20) }) : null;
pool?.on('error', () => {
  // An idle client lost its connection: the pool replaces it.
});
if (pool) {
  await pool.query(`create table if not exists bench_floor_writes (
    id bigint generated always as identity primary key,
    uuid uuid not null default gen_random_uuid(),
    content text not null,
    created_at timestamptz not null default now()
  )`);
}

const app = Fastify({ logger: false });
app.get('/', async () => ({ status: 'success', data: { hello: 'world' } }));

let page: unknown = null;
app.put('/page', async (request) => {
  page = request.body;
  return { status: 'success', data: true };
});
app.get('/page', async (_request, reply) => (page === null ? reply.code(404).send({ status: 'error', message: 'no page stored' }) : page));

const SELECT = {
  name: 'floor_select',
  text: `select id, uuid, conversation_id, type, status, content_type, content, text_content, private, sender_id, sender_type, meta, source_id, created_at, updated_at
         from messages where id = $1`,
};
app.get<{ Params: { id: string } }>('/floor/select/:id', async (request, reply) => {
  if (!pool) return reply.code(404).send({ status: 'error', message: 'no database (FLOOR_DATABASE_URL)' });
  const { rows } = await pool.query({ ...SELECT, values: [Number(request.params.id)] });
  if (rows.length === 0) return reply.code(404).send({ status: 'error', message: 'no such row' });
  return { status: 'success', data: rows[0] };
});

const INSERT = { name: 'floor_insert', text: 'insert into bench_floor_writes (content) values ($1) returning id, uuid, created_at' };
app.post<{ Body: { message?: unknown } }>('/floor/insert', async (request, reply) => {
  if (!pool) return reply.code(404).send({ status: 'error', message: 'no database (FLOOR_DATABASE_URL)' });
  const content = typeof request.body?.message === 'string' ? request.body.message : '';
  const { rows } = await pool.query({ ...INSERT, values: [content] });
  return { status: 'success', data: rows[0] };
});

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('the bare server has no TCP address');
process.stdout.write(`listening ${address.port}\n`);

const stop = () => {
  Promise.all([app.close(), pool?.end()]).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
