import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { ErrorObject } from 'ajv';
import { assertBusinessHoursExist } from '../business-hours/business-hours.service.ts';
import { requireTimeZone } from '../business-hours/zoned-time.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { DataError, describeIssue, InputError, NotFoundError } from '../errors.ts';
import { isEmailAddress, splitNamedAddress } from '../http/formats.ts';
import { recordEvent } from '../events/events.service.ts';
import { buildAjv } from '../http/validation.ts';
import { DecryptionError, decryptSecret, encryptSecret, isEncrypted, SECRET_MASK } from '../security/encryption.ts';
import { assertTeamsExist } from '../teams/teams.service.ts';
import { type AuditActor, changesBetween } from '../audit/audit.service.ts';
import { CHANNEL_TABLE } from './channels.ts';
import { auditedInbox, auditInbox } from './inboxes.audit.ts';
import * as q from './inboxes.queries.ts';
import { type Channel, EmailConfig, LivechatConfig, TRUSTED_DOMAIN } from './inboxes.schema.ts';

export { findLiveInbox } from './inboxes.queries.ts';

type Config = Record<string, unknown>;
type InboxRow = NonNullable<Awaited<ReturnType<typeof q.findInbox>>>;

/** Where each channel keeps its secrets inside `config`. */
const SECRET_PATHS: Record<Channel, ReadonlyArray<readonly string[]>> = {
  email: [
    ['imap', 'password'],
    ['smtp', 'password'],
  ],
  livechat: [['secret']],
};

// Config is validated here rather than at the edge because its shape depends on the channel
// (and, on update, on the stored row). Defaults are filled in; unknown keys are refused.
const configAjv = buildAjv({ coerceTypes: false });
const configValidators = { email: configAjv.compile(EmailConfig), livechat: configAjv.compile(LivechatConfig) };

function isObject(value: unknown): value is Config {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parentOf(config: Config, path: readonly string[]): Config | undefined {
  let node: unknown = config;
  for (const key of path.slice(0, -1)) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return isObject(node) ? node : undefined;
}

function leafOf(path: readonly string[]): string {
  return path[path.length - 1] as string;
}

/** Applies `change` to every secret of the channel present in a copy of `config`. */
function mapSecrets(channel: Channel, config: Config, change: (value: string) => string): Config {
  const copy = structuredClone(config);
  for (const path of SECRET_PATHS[channel]) {
    const parent = parentOf(copy, path);
    const value = parent?.[leafOf(path)];
    if (parent && typeof value === 'string' && value !== '') parent[leafOf(path)] = change(value);
  }
  return copy;
}

function maskConfig(channel: Channel, stored: Config): Config {
  return mapSecrets(channel, stored, () => SECRET_MASK);
}

function encryptConfig(deps: AppDeps, channel: Channel, plain: Config): Config {
  return mapSecrets(channel, plain, (value) => encryptSecret(deps.config.secretKey, value));
}

function decryptConfig(deps: AppDeps, channel: Channel, stored: Config): Config {
  return mapSecrets(channel, stored, (value) => (isEncrypted(value) ? decryptSecret(deps.config.secretKey, value) : value));
}

/**
 * For an update: a secret that no longer decrypts (SECRET_KEY was changed) counts as not stored,
 * so the admin can type it again instead of meeting a 500; sending the mask for it is then a 400.
 */
function decryptConfigForUpdate(deps: AppDeps, channel: Channel, stored: Config): Config {
  return mapSecrets(channel, stored, (value) => {
    if (!isEncrypted(value)) return value;
    try {
      return decryptSecret(deps.config.secretKey, value);
    } catch (error) {
      if (error instanceof DecryptionError) return '';
      throw error;
    }
  });
}

function fieldError(error: ErrorObject | undefined): InputError {
  if (!error) return InputError.field('config', 'is invalid');
  const field = ['config', ...error.instancePath.split('/').filter(Boolean)].join('.');
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return InputError.field(`${field}.${String(params['missingProperty'])}`, 'is required');
  if (error.keyword === 'additionalProperties')
    return InputError.field(`${field}.${String(params['additionalProperty'])}`, 'is not allowed');
  return InputError.field(field, describeIssue(error));
}

function validIpOrCidr(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  if (rest.length > 0 || !address) return false;
  const version = isIP(address);
  if (version === 0) return false;
  if (prefix === undefined) return true;
  if (!/^[0-9]{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

/** Checks the rules a JSON schema cannot say, normalises lists, and generates the JWT secret when absent. */
function finishLivechatConfig(config: Config): Config {
  config['timezone'] = requireTimeZone(config['timezone'] as string, 'config.timezone');
  if (config['show_office_hours_after_assignment'] === true && config['show_office_hours_in_chat'] !== true) {
    throw InputError.field('config.show_office_hours_after_assignment', 'requires show_office_hours_in_chat');
  }

  const domains = (config['trusted_domains'] as string[]).map((d) => d.trim().toLowerCase());
  domains.forEach((domain, i) => {
    if (!TRUSTED_DOMAIN.test(domain))
      throw InputError.field(`config.trusted_domains.${i}`, 'must be a host name without scheme or path; "*." only as a prefix');
  });
  config['trusted_domains'] = [...new Set(domains)];

  const ips = (config['blocked_ips'] as string[]).map((ip) => ip.trim());
  ips.forEach((ip, i) => {
    if (!validIpOrCidr(ip)) throw InputError.field(`config.blocked_ips.${i}`, 'must be an IP address or a CIDR range');
  });
  config['blocked_ips'] = [...new Set(ips)];

  const prechat = config['prechat_form'] as { fields: Array<{ key: string }> };
  const keys = new Set<string>();
  prechat.fields.forEach((field, i) => {
    if (keys.has(field.key)) throw InputError.field(`config.prechat_form.fields.${i}.key`, `duplicates "${field.key}"`);
    keys.add(field.key);
  });

  const upload = config['file_upload'] as { allowed_extensions: string[] };
  upload.allowed_extensions = [...new Set(upload.allowed_extensions.map((ext) => ext.replace(/^\./, '').toLowerCase()))];

  if (config['secret'] === undefined) config['secret'] = randomBytes(32).toString('base64url');
  return config;
}

/** A mail server's settings a kept password stays bound to (`tls_skip_verify` counts as false when absent). */
const BOUND_TO_PASSWORD = ['host', 'port', 'tls', 'tls_skip_verify'] as const;

/**
 * The plaintext config to store: validated for the channel, defaults filled in. A secret sent as
 * the mask (or, on update, left out) keeps the value in `stored`, the decrypted current config,
 * unless it is a mail server's password and the host changed.
 */
function prepareConfig(deps: AppDeps, channel: Channel, raw: Config, stored: Config | null): Config {
  const config = structuredClone(raw);
  for (const path of SECRET_PATHS[channel]) {
    const parent = parentOf(config, path);
    if (!parent) continue;
    const leaf = leafOf(path);
    const value = parent[leaf];
    if (value !== SECRET_MASK && !(value === undefined && stored)) continue;
    const storedParent = stored ? parentOf(stored, path) : undefined;
    const kept = storedParent?.[leaf];
    if (typeof kept === 'string' && kept !== '') {
      // A mail server's password only goes where, and as safely as, it was given for.
      const setting = (node: Config, key: (typeof BOUND_TO_PASSWORD)[number]) =>
        node[key] ?? (key === 'tls_skip_verify' ? false : undefined);
      const moved =
        storedParent && 'host' in parent ? BOUND_TO_PASSWORD.find((key) => setting(parent, key) !== setting(storedParent, key)) : undefined;
      if (moved !== undefined) {
        const at = ['config', ...path.slice(0, -1)].join('.');
        throw InputError.field(
          ['config', ...path].join('.'),
          `must be sent again when ${at}.${moved} changes: a kept password only goes to the server, port and TLS settings it was given for`,
        );
      }
      parent[leaf] = kept;
    } else if (value === SECRET_MASK)
      throw InputError.field(['config', ...path].join('.'), 'no value is stored to keep: send the secret itself, not the mask');
  }
  if (CHANNEL_TABLE[channel].widget && config['timezone'] === undefined) config['timezone'] = deps.config.timezone;

  const validate = configValidators[channel];
  if (!validate(config)) throw fieldError(validate.errors?.[0]);
  return CHANNEL_TABLE[channel].widget ? finishLivechatConfig(config) : config;
}

/** `from` trimmed, or null when empty; an email inbox must have one. */
function normaliseFrom(channel: Channel, from: string | null | undefined): string | null {
  const value = from?.trim() || null;
  if (value === null) {
    if (CHANNEL_TABLE[channel].threadsByMail) throw InputError.field('from', 'is required for email inboxes');
    return null;
  }
  if (!isEmailAddress(splitNamedAddress(value).address))
    throw InputError.field('from', 'must be an email address, optionally with a display name: "Support <support@example.com>"');
  return value;
}

function toRecord(row: InboxRow) {
  return { ...row, config: maskConfig(row.channel, row.config) };
}

export async function listInboxes(deps: AppDeps) {
  return (await q.listInboxes(deps.db)).map(toRecord);
}

export async function listInboxesCompact(deps: AppDeps) {
  return q.listInboxesCompact(deps.db);
}

export async function getInbox(deps: AppDeps, id: number) {
  const row = await q.findInbox(deps.db, id);
  if (!row) throw new NotFoundError('Inbox not found');
  return toRecord(row);
}

export interface CreateInboxInput {
  name: string;
  channel: Channel;
  enabled?: boolean;
  csat_enabled?: boolean;
  default_team_id?: number | null;
  assign_on_first_reply?: boolean;
  from?: string | null;
  config: Config;
}

/** The default team names a team (a 400 naming the field otherwise); the foreign key holds it against a concurrent delete. */
async function assertDefaultTeam(db: DB, teamId: number | null | undefined): Promise<void> {
  if (typeof teamId === 'number') await assertTeamsExist(db, [teamId], 'default_team_id');
}

/** The business hours a live-chat config names exist (a 400 naming the field otherwise). */
async function assertConfigHours(db: DB, config: Config): Promise<void> {
  const id = config['business_hours_id'];
  if (typeof id === 'number') await assertBusinessHoursExist(db, id, 'config.business_hours_id');
}

export async function createInbox(deps: AppDeps, actor: AuditActor, input: CreateInboxInput) {
  const from = normaliseFrom(input.channel, input.from);
  const config = prepareConfig(deps, input.channel, input.config, null);
  await assertConfigHours(deps.db, config);
  await assertDefaultTeam(deps.db, input.default_team_id);
  const created_at = deps.clock.now();
  const row = await deps.db.transaction().execute(async (trx) => {
    const inserted = await q.insertInbox(trx, {
      name: input.name.trim(),
      channel: input.channel,
      enabled: input.enabled ?? true,
      csat_enabled: input.csat_enabled ?? false,
      default_team_id: input.default_team_id ?? null,
      assign_on_first_reply: input.assign_on_first_reply ?? false,
      from,
      config: encryptConfig(deps, input.channel, config),
      created_at,
    });
    await auditInbox(trx, actor, 'inbox.created', inserted, changesBetween(null, auditedInbox(inserted, config)), created_at);
    return inserted;
  });
  const record = toRecord(row);
  // The live-chat secret (given or generated) is shown once, here; masked everywhere else.
  if (CHANNEL_TABLE[input.channel].widget) return { ...record, config: { ...record.config, secret: config['secret'] } };
  return record;
}

/** A new live-chat JWT secret, shown once (422 for another channel). Identity tokens signed with the old one stop working at once. */
/**
 * A new JWT secret for a live-chat inbox. With `endSessions`, every widget session of the inbox
 * ends with it (visitors and contacts start anew; their open sockets are closed through the
 * `inbox.changed` event): what a leaked secret let someone open is closed too.
 */
export async function rotateInboxSecret(
  deps: AppDeps,
  actor: AuditActor,
  id: number,
  options: { endSessions: boolean } = { endSessions: false },
): Promise<{ secret: string; sessions_ended: number }> {
  return deps.db.transaction().execute(async (trx) => {
    const current = await q.findInboxForUpdate(trx, id);
    if (!current) throw new NotFoundError('Inbox not found');
    if (!CHANNEL_TABLE[current.channel].widget) throw new DataError('Only live-chat inboxes have a secret to rotate');
    const secret = randomBytes(32).toString('base64url');
    const config = { ...current.config, secret: encryptSecret(deps.config.secretKey, secret) };
    const now = deps.clock.now();
    await q.updateInbox(trx, id, { config, updated_at: now });
    await auditInbox(trx, actor, 'inbox.secret_rotated', current, { 'config.secret': [current.config['secret'], config.secret] }, now);
    if (!options.endSessions) return { secret, sessions_ended: 0 };
    const ended = await q.deleteWidgetSessionsOfInbox(trx, id);
    await recordEvent(trx, 'inbox.changed', { inbox_id: id, inbox_uuid: current.uuid, enabled: current.enabled, deleted: false }, now);
    return { secret, sessions_ended: ended };
  });
}

export interface UpdateInboxInput {
  name?: string;
  enabled?: boolean;
  csat_enabled?: boolean;
  default_team_id?: number | null;
  assign_on_first_reply?: boolean;
  from?: string | null;
  config?: Config;
  /** Read-only: accepted only when it equals the current channel. */
  channel?: Channel;
}

export async function updateInbox(deps: AppDeps, actor: AuditActor, id: number, input: UpdateInboxInput) {
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await q.findInboxForUpdate(trx, id);
    if (!current) throw new NotFoundError('Inbox not found');
    if (input.channel !== undefined && input.channel !== current.channel) {
      throw new DataError(`An inbox's channel cannot change (this one is ${current.channel}); create a new inbox instead`);
    }
    const values: q.InboxValues & { updated_at: Date } = { updated_at: deps.clock.now() };
    if (input.name !== undefined) values.name = input.name.trim();
    if (input.enabled !== undefined) values.enabled = input.enabled;
    if (input.csat_enabled !== undefined) values.csat_enabled = input.csat_enabled;
    if (input.default_team_id !== undefined) {
      await assertDefaultTeam(trx, input.default_team_id);
      values.default_team_id = input.default_team_id;
    }
    if (input.assign_on_first_reply !== undefined) values.assign_on_first_reply = input.assign_on_first_reply;
    if (input.from !== undefined) values.from = normaliseFrom(current.channel, input.from);
    const storedPlain = decryptConfigForUpdate(deps, current.channel, current.config);
    let plain = storedPlain;
    if (input.config !== undefined) {
      plain = prepareConfig(deps, current.channel, input.config, storedPlain);
      await assertConfigHours(trx, plain);
      values.config = encryptConfig(deps, current.channel, plain);
    }
    const updated = await q.updateInbox(trx, id, values);
    if (!updated) throw new NotFoundError('Inbox not found');
    const changes = changesBetween(auditedInbox(current, storedPlain), auditedInbox(updated, plain));
    await auditInbox(trx, actor, 'inbox.updated', updated, changes, values.updated_at);
    await recordEvent(
      trx,
      'inbox.changed',
      { inbox_id: id, inbox_uuid: updated.uuid, enabled: updated.enabled, deleted: false },
      values.updated_at,
    );
    return updated;
  });
  return toRecord(row);
}

/**
 * For the widget's preview (widget/widget.preview.ts): a live-chat inbox's draft `config` checked
 * and completed exactly as an update would store it (defaults, the rules a schema cannot say,
 * masked or absent secret kept), with the named business hours checked; nothing is written.
 * 404 unknown, 422 not a live chat. Internal use only: the result carries the decrypted secret.
 */
export async function livechatDraft(deps: AppDeps, id: number, config: Config) {
  const current = await q.findInbox(deps.db, id);
  if (!current) throw new NotFoundError('Inbox not found');
  if (!CHANNEL_TABLE[current.channel].widget) throw new DataError('Only live-chat inboxes have a widget to preview');
  const plain = prepareConfig(deps, 'livechat', config, decryptConfigForUpdate(deps, 'livechat', current.config));
  await assertConfigHours(deps.db, plain);
  return { id: current.id, uuid: current.uuid, name: current.name, config: plain };
}

export async function toggleInbox(deps: AppDeps, actor: AuditActor, id: number, enabled: boolean) {
  const row = await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const current = await q.findInboxForUpdate(trx, id);
    const updated = current && (await q.updateInbox(trx, id, { enabled, updated_at: now }));
    if (!current || !updated) throw new NotFoundError('Inbox not found');
    await auditInbox(trx, actor, 'inbox.updated', updated, changesBetween(current, updated, ['enabled']), now);
    await recordEvent(trx, 'inbox.changed', { inbox_id: id, inbox_uuid: updated.uuid, enabled, deleted: false }, now);
    return updated;
  });
  return toRecord(row);
}

export async function deleteInbox(deps: AppDeps, actor: AuditActor, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await q.findInboxForUpdate(trx, id);
    const now = deps.clock.now();
    if (!current || !(await q.softDeleteInbox(trx, id, now))) throw new NotFoundError('Inbox not found');
    const before = auditedInbox(current, decryptConfigForUpdate(deps, current.channel, current.config));
    await auditInbox(trx, actor, 'inbox.deleted', current, changesBetween(before, null), now);
    await recordEvent(trx, 'inbox.changed', { inbox_id: id, inbox_uuid: current.uuid, enabled: current.enabled, deleted: true }, now);
  });
}

/**
 * For a connection test (email.test-connection.ts): the email inbox's stored settings, DECRYPTED,
 * with the `draft` servers (imap, smtp) in place of the stored ones. A masked or absent draft
 * password keeps the stored one by the rule of saving (prepareConfig): only while host, port,
 * tls and tls_skip_verify are unchanged. Internal use only: never send the result to a client.
 */
export async function emailSettingsWithDraft(deps: AppDeps, id: number, draft: { imap?: Config; smtp?: Config }): Promise<Config> {
  const row = await q.findInbox(deps.db, id);
  if (!row) throw new NotFoundError('Inbox not found');
  if (!CHANNEL_TABLE[row.channel].threadsByMail) throw new DataError('Only email inboxes have mail servers to test');
  const stored = decryptConfigForUpdate(deps, 'email', row.config);
  const merged = { ...stored, ...(draft.imap ? { imap: draft.imap } : {}), ...(draft.smtp ? { smtp: draft.smtp } : {}) };
  return prepareConfig(deps, 'email', merged, stored);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * For the widget and the email channel: the live (not deleted) inbox with its config DECRYPTED.
 * Internal use only: never send the result to a client. Null for a malformed or unknown uuid;
 * callers decide what a disabled inbox or the wrong channel means for them.
 */
export async function getInboxByUuid(deps: AppDeps, uuid: string) {
  if (!UUID.test(uuid)) return null;
  const row = await q.findInboxByUuid(deps.db, uuid.toLowerCase());
  if (!row) return null;
  return { ...row, config: decryptConfig(deps, row.channel, row.config) };
}

/**
 * For the email channel: the live inbox by id with its config DECRYPTED, or null. Internal use
 * only: never send the result to a client. A secret that no longer decrypts (SECRET_KEY changed)
 * throws DecryptionError: the caller reports that the inbox needs its password again.
 */
export async function getInboxWithSecrets(deps: AppDeps, id: number) {
  const row = await q.findInbox(deps.db, id);
  if (!row) return null;
  return { ...row, config: decryptConfig(deps, row.channel, row.config) };
}
