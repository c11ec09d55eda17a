-- One row per session and player: the session's net (its complete deals under the
-- filters) and the placement 1..4 (1st = highest net). Ties: equal nets are ordered by
-- seat, the lower seat (earlier in the session's turn order) placing higher, then by
-- name, so every session has exactly one 1st, 2nd... The player filter applies after the
-- ranking: a player's placements are always among the whole table.
-- Two exclusive branches (30_filters.sql): with no tablemates the per-session sums come
-- from mart_session_days (per session, player and day), else from the deals' seat rows.
with picked as (
    select *
    from seat_deals_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0
),

per_session as (
    select
        session_id,
        player,
        min(seat) as seat,
        min(played_at) as played_at,
        min(played_date) as played_date,
        cast(sum(deals) as bigint) as deals,
        cast(sum(net) as bigint) as net
    from session_days_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    group by session_id, player
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
)

select session_id, played_at, played_date, player, seat, deals, net, placement, table_size
from ranked
where $player is null or player = $player
order by played_at nulls first, session_id, placement;
