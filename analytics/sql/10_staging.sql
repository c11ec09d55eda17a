-- Staging: one view per warehouse table, over the raw_* relations that analytics/queries.py
-- makes from the Parquet files the catalog lists (recorded batches only). Light typing and
-- derived columns only; no filtering.

create or replace view stg_sessions as
select
    session_id,
    month,
    played_at,
    cast(played_at as date) as played_date,
    club,
    "table",
    rules,
    base,
    players,
    deals,
    computed_totals,
    recorded_totals,
    findings,
    file,
    line
from raw_sessions;

create or replace view stg_deals as
select
    deal_id,
    month,
    session_id,
    played_at,
    cast(played_at as date) as played_date,
    club,
    "table",
    rules,
    base,
    dealer,
    players,
    status,
    status in ('ok', 'findings') as is_complete,
    end_reason,
    recorded_end_reason,
    events,
    wins,
    self_draws,
    kongs,
    still_in_at_end,
    flower_pigs,
    findings,
    warnings,
    finding_codes,
    scores,
    file,
    line,
    last_line,
    coalesce(record, 'tiles') as record,  -- null in batches written before the column
    coalesce(record, 'tiles') = 'sheet' as is_sheet
from raw_deals;

create or replace view stg_seats as
select
    *,
    cast(played_at as date) as played_date,
    win_kind in ('self_draw', 'kong_bloom') as is_self_draw
from raw_seats;

create or replace view stg_events as
select * from raw_events;

create or replace view stg_ledger as
select * from raw_ledger;

create or replace view stg_findings as
select * from raw_findings;

create or replace view stg_quarantine as
select * from raw_quarantine;
