-- One row per player and table size (the session's players: 4, 3 or 2 seats): sessions
-- played at that size, placements 1st..4th (a three-player table has no 4th), their rates
-- and the average placement, so a club that plays three- and four-player tables compares
-- like with like. Ranked as in session_placements.sql (same branches, same tie rule); the
-- player filter applies after the ranking.
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
),

per_table as (
    select
        player,
        table_size,
        count(*) as sessions,
        count(*) filter (where placement = 1) as placement_1,
        count(*) filter (where placement = 2) as placement_2,
        count(*) filter (where placement = 3) as placement_3,
        count(*) filter (where placement = 4) as placement_4,
        avg(placement) as avg_placement
    from ranked
    group by player, table_size
)

select
    player,
    table_size,
    sessions,
    avg_placement,
    placement_1,
    placement_2,
    placement_3,
    placement_4,
    placement_1 / sessions as placement_1_rate,
    placement_2 / sessions as placement_2_rate,
    placement_3 / sessions as placement_3_rate,
    placement_4 / sessions as placement_4_rate
from per_table
where $player is null or player = $player
order by table_size desc, avg_placement, player;
