-- Staging: one view per warehouse table, over the raw_* relations that analytics/queries.py
-- makes from the Parquet files the catalog lists (recorded batches only). Light typing and
-- derived columns only; the one filter: a deal corrected later (a revision, ingest/revisions.py:
-- revision N of deal D is stored as D~revN) counts only in its latest revision, so the
-- deal tables below hide the stored ids of earlier revisions (stg_superseded) and
-- stg_deal_revisions lists every revision for the Audit page. A latest revision that
-- deletes its deal (end_reason 'deleted', ingest/sheets/deleted.py) is hidden too, so
-- no revision of a deleted deal counts anywhere.

-- every stored deal id, with what the revisions read of it (the incremental refresh,
-- analytics/incremental.py, reads the new batches' ids beside the held ones through this
-- view, so a revision sees its earlier ones)
create or replace view stg_deal_ids as
select deal_id, end_reason from raw_deals;

create or replace view stg_revision_ids as
with corrections as (  -- stored ids D~revN (N >= 2): few, found by a cheap LIKE first
    select
        deal_id as stored_id,
        regexp_replace(deal_id, '~rev[0-9]+$', '') as deal_id,
        cast(regexp_extract(deal_id, '~rev([0-9]+)$', 1) as integer) as revision,
        coalesce(end_reason = 'deleted', false) as deleted
    from stg_deal_ids
    where deal_id like '%~rev%' and regexp_matches(deal_id, '~rev[0-9]+$')
),

revised as (
    select deal_id, max(revision) as latest_revision
    from corrections
    where revision >= 2
    group by deal_id
),

stored as (
    select stored_id, deal_id, revision, deleted
    from corrections
    where revision >= 2
    union all
    select deal_id as stored_id, deal_id, 1 as revision, false as deleted  -- the first recording keeps its id
    from stg_deal_ids
    semi join revised using (deal_id)
)

select
    s.stored_id,
    s.deal_id,
    s.revision,
    r.latest_revision,
    s.revision = r.latest_revision as is_latest,
    s.deleted
from stored as s
inner join revised as r using (deal_id);

create or replace view stg_deal_revisions as
select
    i.deal_id,
    i.revision,
    i.is_latest,
    i.latest_revision,
    i.stored_id,
    d.session_id,
    d.played_at,
    d.status,
    d.findings,
    d.scores,
    d.file,
    d.line,
    i.deleted
from stg_revision_ids as i
inner join raw_deals as d on d.deal_id = i.stored_id;

create or replace view stg_superseded as
select stored_id as deal_id
from stg_revision_ids
where not is_latest or deleted;

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
from raw_deals
anti join stg_superseded using (deal_id);

create or replace view stg_seats as
select
    *,
    cast(played_at as date) as played_date,
    win_kind in ('self_draw', 'kong_bloom') as is_self_draw
from raw_seats
anti join stg_superseded using (deal_id);

create or replace view stg_events as
select * from raw_events
anti join stg_superseded using (deal_id);

create or replace view stg_ledger as
select * from raw_ledger
anti join stg_superseded using (deal_id);

create or replace view stg_findings as
select * from raw_findings
anti join stg_superseded using (deal_id);

create or replace view stg_quarantine as
select * from raw_quarantine;
