// Frozen: never edit a migration once it has landed; add a new dated one.
// Business hours (docs/api.md, "Business hours") and the installation's general settings: the
// default business hours and the time zone of reports. Teams' business_hours_id (a column
// since 0001) now references them; until now the API refused every value, so any found is
// dangling and cleared. Nothing deletes business hours in use: the service answers 422, and
// the foreign keys (no action) keep a racing change from leaving a dangling id.
// The permissions business_hours:manage, sla:manage and general_settings:manage have been in
// the catalogue since 0001; the Admin role is given the whole catalogue at every start
// (roles.service.ts seedRoles), so no role row changes here.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table business_hours (
    id serial primary key,
    name text not null check (char_length(name) between 1 and 140),
    description text not null default '' check (char_length(description) <= 1000),
    timezone text not null check (char_length(timezone) between 1 and 64),
    always_open boolean not null default false,
    hours jsonb not null default '{}' check (jsonb_typeof(hours) = 'object'),
    holidays jsonb not null default '[]' check (jsonb_typeof(holidays) = 'array'),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index business_hours_name_key on business_hours (lower(name))`,

  `update teams set business_hours_id = null where business_hours_id is not null`,
  `alter table teams add constraint teams_business_hours_id_fkey foreign key (business_hours_id) references business_hours (id)`,
  // The "in use" check before a delete.
  `create index teams_business_hours_idx on teams (business_hours_id) where business_hours_id is not null`,

  // One row: the installation's general settings. A null timezone follows TIMEZONE.
  `create table general_settings (
    id boolean primary key default true check (id),
    business_hours_id integer references business_hours (id),
    timezone text check (char_length(timezone) between 1 and 64),
    updated_at timestamptz not null default now()
  )`,
  `insert into general_settings default values`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
