-- Staging: one view per warehouse table, over the raw_* relations that analytics/queries.py
-- makes from the Parquet files the catalog lists (recorded batches only). Light typing and
-- derived columns only; the one filter: a deal corrected later (a revision, ingest/logs/revisions.py:
-- revision N of deal D is stored as D~revN) counts only in its latest revision, so the
-- deal tables below hide the stored ids of earlier revisions (stg_superseded) and
-- stg_deal_revisions lists every revision for the Audit page. A latest revision that
-- deletes its deal (end_reason 'deleted', ingest/sheets/deleted.py) is hidden too, so
-- no revision of a deleted deal counts anywhere.

-- The club's roster (analytics/roster.py, <warehouse>/roster.json), applied as the files
-- are read: the table roster_names (club, recorded, shown, guest, forgotten) maps a name as
-- recorded in a club to the name shown everywhere (an alias to its player, a forgotten
-- player to an anonymous label). The stored files keep the names as recorded.
create or replace view stg_roster as
select
    club,
    map_from_entries(list({'k': recorded, 'v': shown})) as names,
    coalesce(
        list({'name': recorded, 'label': shown} order by length(recorded) desc) filter (where forgotten),
        cast([] as struct(name varchar, label varchar)[])
    ) as forgotten
from roster_names
group by club;

-- every club's forgotten names, for text whose club is not known (quarantined lines)
create or replace view stg_forgotten as
select coalesce(
    list({'name': recorded, 'label': shown} order by length(recorded) desc) filter (where forgotten),
    cast([] as struct(name varchar, label varchar)[])
) as pairs
from roster_names;

-- a name as shown: the roster's name for it in its club, else the name as recorded
create or replace macro roster_name(p_name, p_names) as coalesce(p_names[p_name], p_name);

-- text (a finding's message, a raw line) with every forgotten name replaced by its label
create or replace macro roster_scrub(p_text, p_pairs) as
case
    when p_text is null or p_pairs is null or len(p_pairs) = 0 then p_text
    else list_reduce(p_pairs, lambda acc, p: replace(acc, p.name, p.label), p_text)
end;

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
    list_transform(players, lambda p: roster_name(p, r.names)) as players,
    deals,
    computed_totals,
    recorded_totals,
    findings,
    file,
    line
from raw_sessions
left join stg_roster as r using (club);

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
    list_transform(players, lambda p: roster_name(p, r.names)) as players,
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
from (select * from raw_deals anti join stg_superseded using (deal_id))
left join stg_roster as r using (club);

-- 血流成河: a seat may win again; its row describes its first win, win_count and win_fans
-- every win (batches written before those columns read as one win, or none)
create or replace view stg_seats as
select
    s.* replace (
        roster_name(s.player, r.names) as player,
        coalesce(s.win_count, case when s.won then 1 else 0 end) as win_count,
        coalesce(s.win_fans, case when s.won then [cast(s.fan as integer)] else cast([] as integer[]) end) as win_fans
    ),
    cast(s.played_at as date) as played_date,
    s.win_kind in ('self_draw', 'kong_bloom') as is_self_draw
from (select * from raw_seats anti join stg_superseded using (deal_id)) as s
left join stg_roster as r on r.club = s.club;

create or replace view stg_events as
select * from raw_events
anti join stg_superseded using (deal_id);

-- the ledger and the findings have no club of their own: their deal's (raw_deals)
create or replace view stg_ledger as
select
    l.* replace (
        roster_name(l.payer_player, r.names) as payer_player,
        roster_name(l.payee_player, r.names) as payee_player
    )
from (select * from raw_ledger anti join stg_superseded using (deal_id)) as l
left join (select deal_id, club from raw_deals) as d on d.deal_id = l.deal_id
left join stg_roster as r on r.club = d.club;

create or replace view stg_findings as
select
    f.* replace (
        roster_name(f.player, r.names) as player,
        roster_scrub(f.message, coalesce(r.forgotten, a.pairs)) as message,
        roster_scrub(f.message_zh, coalesce(r.forgotten, a.pairs)) as message_zh,
        roster_scrub(f.message_values, coalesce(r.forgotten, a.pairs)) as message_values
    )
from (select * from raw_findings anti join stg_superseded using (deal_id)) as f
left join (select deal_id, club from raw_deals) as d on d.deal_id = f.deal_id
left join stg_roster as r on r.club = d.club
cross join stg_forgotten as a;

-- a quarantined line's club may not be known: every club's forgotten names are replaced
create or replace view stg_quarantine as
select q.* replace (roster_scrub(q.raw, a.pairs) as raw, roster_scrub(q.detail, a.pairs) as detail)
from raw_quarantine as q
cross join stg_forgotten as a;
