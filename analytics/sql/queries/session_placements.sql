-- One row per session and player: the session's net (its complete deals under the
-- filters) and the placement 1..4 (1st = highest net). Ties: equal nets are ordered by
-- seat, the lower seat (earlier in the session's turn order) placing higher, then by
-- name, so every session has exactly one 1st, 2nd... The player filter applies after the
-- ranking: a player's placements are always among the whole table.
-- Exclusive branches (30_filters.sql): with no tablemates a session on one day, club and
-- rule set is read ranked from mart_session_places (a filter takes all of it or none), a
-- session split over several is ranked here from mart_session_days; with tablemates every
-- session is ranked here from the deals' seat rows.
with picked as (
    select *
    from seat_deals_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0
),

split as (
    select distinct session_id
    from sums_in('mart_session_places', $club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    where placement is null
),

per_session as (
    select
        d.session_id,
        d.player,
        min(d.seat) as seat,
        min(d.played_at) as played_at,
        min(d.played_date) as played_date,
        cast(sum(d.deals) as bigint) as deals,
        cast(sum(d.net) as bigint) as net
    from sums_in('mart_session_days', $club, $date_from, $date_to, $rules, cast($tablemates as varchar[])) as d
    semi join split as s on d.session_id is not distinct from s.session_id
    group by d.session_id, d.player
    union all
    select
        session_id,
        player,
        min(seat) as seat,
        min(played_at) as played_at,
        min(played_date) as played_date,
        count(*) as deals,
        cast(sum(net) as bigint) as net
    from picked
    group by session_id, player
),

ranked as (
    select
        *,
        row_number() over (partition by session_id order by net desc, seat, player) as placement,
        count(*) over (partition by session_id) as table_size
    from per_session
    union all
    select session_id, player, seat, played_at, played_date, deals, net, placement, table_size
    from sums_in('mart_session_places', $club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    where placement is not null
)

select session_id, played_at, played_date, player, seat, deals, net, placement, table_size
from ranked
where $player is null or player = $player
order by played_at nulls first, session_id, placement;
