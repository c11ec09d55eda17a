-- Sessions, the latest first, with their deals and how many have findings (the replay and
-- audit pages choose from it), from the sessions' day rows (mart_sessions, 20_marts.sql).
-- Options (Analytics.query): $findings_only keeps the sessions with a finding, $limit the
-- latest so many (null: all); listed_sessions is how many there are before the limit. The
-- counts are summed and the latest picked first; only the picked sessions' names are read.
with days as (
    select *
    from sessions_in($club, $date_from, $date_to, $rules, $seats, $player)  -- 30_filters.sql
),

counted as (
    select
        session_id,
        min(played_at) as played_at,
        cast(sum(invalid_deals) as bigint) as invalid_deals,  -- not replayed to their end
        cast(sum(deals) as bigint) as deals,
        cast(sum(findings_deals) as bigint) as findings_deals,
        cast(sum(tile_deals) as bigint) as tile_deals  -- the replay opens on a session it can draw
    from days
    group by session_id
    having not coalesce($findings_only, false) or sum(findings_deals) > 0
),

latest as (
    select *, count(*) over () as listed_sessions
    from counted
    order by played_at desc nulls last, session_id
    limit $limit
),

named as (
    select
        session_id,
        any_value(club) as club,
        any_value("table") as "table",
        any_value(rules) as rules,
        any_value(players) as players
    from days
    where session_id in (select session_id from latest)
    group by session_id
)

select
    l.session_id,
    l.played_at,
    l.invalid_deals,
    n.club,
    n."table",
    n.rules,
    n.players,
    l.deals,
    l.findings_deals,
    l.tile_deals,
    l.listed_sessions
from latest as l
join named as n using (session_id)
order by l.played_at desc nulls last, l.session_id;
