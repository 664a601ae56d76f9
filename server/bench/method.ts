// How the benchmark measures ("What is measured" in docs/performance.md): the fixed text that
// follows the results in the report file, whichever scenarios ran (report-file.ts writes it).
import { WARM_ANSWERS_PER_CONNECTION } from './load.ts';

export const METHOD = `## What is measured

\`npm run bench\` does, in one run:

1. **Dataset.** It drops and recreates the PostgreSQL database named by \`BENCH_DATABASE_URL\`
   (default \`postgres://postgres@127.0.0.1:5432/parley_bench\`), runs Parley's migrations and
   built-in data, and creates the admin, 50 agents (role Agent, 10 per team), 5 teams and 2 inboxes
   (email and live chat) through Parley's own services. The bulk is generated with set-based SQL:
   50,000 contacts; 100,000 conversations spread over the last 365 days (more of them recent; recent
   ones mostly open, older ones resolved or closed), 95% assigned to an agent (about 1,900 each) and
   the rest unassigned; 2 to 18 messages each (1,000,000 in all): the contact first, then contact
   and agent in turn, with private notes (8%) and activity messages (4%), text built from a skewed
   vocabulary so that full-text search meets common and rare words; 0 to 3 of 200 tags per
   conversation (skewed too); the conversations' denormalised columns (last message, its time and
   sender, first and last reply, last incoming message, waiting since) computed from their
   messages; last-seen marks for the assignees. Then \`VACUUM ANALYZE\`.
2. **Servers and floors.** Parley (as \`npm start\` runs it: \`server/src/start.mjs\`, then \`main.ts\`; \`LOG_LEVEL=warn\`, with the Node flags of
   \`npm start\` and the glibc allocator settings of the image and the systemd unit) and a bare Fastify app run as child processes on 127.0.0.1. The bare app holds the
   floors each of Parley's figures is set against, measured in the same run: \`GET /\` answers
   \`{"status":"success","data":{"hello":"world"}}\` (Fastify and the load generator alone);
   \`GET /floor/select/:id\` reads one message row by primary key through \`pg\` (a pool as
   large as Parley's, a prepared statement): the floor of **one message**; \`POST /floor/insert\`
   writes one row with \`INSERT … RETURNING\` into a table of its own and commits: the floor of a
   **reply**; \`GET /page\` answers a copy of Parley's page 1 of the agent's assigned list, taken
   at the start of the run and serialised again on every request: the floor of the **lists**
   (their bytes and serialisation, without auth or database). "vs its floor" is the scenario's
   requests per second as a share of its floor's.
3. **Load.** autocannon runs in the benchmark's own process, on the same cores, with 50
   keep-alive connections, each sending its next request when the previous one is answered.
   Requests authenticate with API credentials (\`Authorization: token key:secret\`) and rotate over
   real ids: 300 messages of the agent's conversations, 200 of its live-chat conversations for
   replies, 20 search words of every frequency.
4. **Warm connections only.** Each scenario runs one autocannon instance: it opens all the
   connections and loads them for an unmeasured warm-up of at least 2 s (\`--warmup\`) that lasts
   until every connection has answered ${WARM_ANSWERS_PER_CONNECTION} requests. Only then does the measured window of 10 s
   (\`--duration\`) open, on the same connections, which stay open throughout. Opening a connection
   (its first request waits for the TCP handshake and, on a busy machine, for the server to accept
   it) and each connection's first requests are therefore never measured: on a loaded machine
   they took up to several seconds and set the p99 of whole runs. The window counts the answers
   that arrive within it on connections that were already warm; the benchmark times them itself
   (from writing the request to the last byte of its answer) and computes requests per second and
   exact percentiles from them, rather than taking autocannon's totals, which include the warm-up.
   A connection re-opened during the window (after an error, a timeout or a close by the server)
   counts again only once warm, and the table reports it beside the failed requests.
   **CPU per request.** At the window's edges the benchmark reads the processor time of the
   server that answers (\`/proc/<pid>/stat\`, all threads, with its child processes), of every
   \`postgres\` process of the machine and of its own process (the load generator), and the
   machine's busy time and the time the hypervisor stole from it (\`/proc/stat\`); "Where the CPU
   goes" divides each by the requests answered in the window (\`server/bench/cpu.ts\`). With the
   machine near fully busy, a scenario's share of its floor is about the floor's sum over the
   scenario's, so the table says which party a missed ratio waits on; a window with much time
   stolen ran on a slower machine than the others, and its ratios are not to be trusted.
   **Work left queued.** A reply enqueues its delivery (a \`livechat.deliver\` job). Before the
   reply's warm-up none is pending; when its window closes the benchmark counts those pending and
   waits until Parley's workers have done them. The reply's target and its scale-curve figure are
   the window's replies over the window plus that wait: replies accepted faster than they are
   delivered are not a reply rate.
5. **Per-request times, memory, first start.** The tag report, the service report and search
   have per-request targets: each is also timed alone, sequential requests on an idle server
   (20; 100 for search, whose target has a p99), after two untimed ones. Parley's RSS
   (\`/proc/<pid>/status\`) is sampled every 200 ms over all the HTTP scenarios; its peak is the
   memory figure. Last, the first start: the start script on an empty \`DATA_DIR\` with no
   \`DATABASE_URL\` (the embedded database created from the migrated image), timed from the
   spawn to the first 200 from \`/ready\`, three times; the median counts.
   With \`--curve\`, the run's figures for one message, the list, the reply, search and the two
   reports go into the scale curve (one row per \`--scale\`).
6. **Realtime.** After the HTTP scenarios, Parley runs again with Redis (\`REDIS_URL\`): first one
   instance, then two separate processes on two ports sharing the database and Redis. A load
   generator in a child process (\`realtime-client.ts\`) opens the agent sockets (\`/ws\`, API
   credentials; fewer agents than sockets, each with several tabs, since every API key costs a
   scrypt hash) and the widget sockets (\`/widget/ws\`, one visitor each, joined with a widget
   session; visitors connect from many loopback addresses, twenty per address, because the
   socket upgrades are limited per address), checks that every socket answers a ping, then sends
   agent replies and visitor messages over HTTP at a steady rate. The same process times each
   \`new_message\` frame from the start of the request that created the message, so both ends
   use one clock; the frame's message uuid identifies it. Expected recipients: the visitor's
   widget for a reply, and every socket of the agents who may read the conversation (its team).
   The widget's HTTP limits are raised for the run (\`WIDGET_RATE_LIMIT_PER_MINUTE\`,
   \`WIDGET_MESSAGE_RATE_LIMIT_PER_MINUTE\`). Memory is each Parley process's VmRSS
   (\`/proc/<pid>/status\`), sampled every 200 ms, peak over the run. The generator reports its own
   CPU over the window and its event-loop delay: when it nears a whole core, the latencies
   include its own queueing.
7. **Webhooks.** Last, Parley runs alone on PostgreSQL with receivers on 127.0.0.1 in the
   benchmark's process (\`WEBHOOK_ALLOW_HOSTS=127.0.0.1\`, \`WEBHOOK_TIMEOUT_SECONDS=30\`). Events are
   contacts created over the API; webhooks are created and deleted over the API. Idle: one
   webhook, one event every 200 ms. Throughput: 16 webhooks to one receiver (each event is 16
   deliveries), 250 events from 16 API clients at once; deliveries per second from the first to
   the last arrival. Isolation: a receiver answering after 10 s and one answering at once, both
   subscribed, 10 events a second for 10 s. Latencies run from the start of the API request that
   records the event to the arrival of the webhook's body; a \`webhook-id\` arriving twice is
   counted.
8. **Email.** Then each direction of the email channel runs in a child process on the same
   PostgreSQL server (a scratch database or schema of its own): \`server/bench/email-ingest.ts\`
   appends 10,000 mails (threads of 5, every 10th with a 20 KB attachment) to Debian's Dovecot,
   started for the run, and times the IMAP reader taking them in from scratch; the threading is
   checked (every thread in one conversation, no conversation holding two). Without Dovecot
   (\`/usr/sbin/dovecot\`) it is reported as skipped. \`server/bench/email-send.ts\` writes 2,000
   agent replies on an email inbox through the API, then times the job runner (JOB_CONCURRENCY 16)
   sending them through the inbox's pooled SMTP transport (5 connections) to an SMTP server in the
   same process, until every message is \`sent\`. Both report their process's RSS before and after.

The ratio to the bare route is the figure to compare across machines: the absolute numbers depend on
the CPU and on whatever else runs on it. A scenario whose requests fail is flagged in the table and
misses its targets; a route that does not exist yet is reported as not available.

Options: \`--scale=0.01\` (a quick run on a small dataset), \`--duration=S\`, \`--warmup=S\`,
\`--connections=N\`, \`--runs=N\`, \`--keep\` (keep the database) and \`--reuse\` (use a kept
database of the same scale instead of seeding again), \`--out=FILE\` / \`--no-write\`. This file is
written only by a run at scale 1 (or with \`--out\`). The exit code is 0 when the run completes,
whether or not the targets are met, and non-zero when the run itself fails.
`;
