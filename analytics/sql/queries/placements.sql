-- One row per player: sessions played, placements 1st..4th (see session_placements.sql
-- for the tie rule), their rates and the average placement (lower is better).
-- Exclusive branches, as in session_placements.sql (mart_session_places and
-- mart_session_days with no tablemates).
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
    select d.session_id, d.player, min(d.seat) as seat, cast(sum(d.net) as bigint) as net
    from sums_in('mart_session_days', $club, $date_from, $date_to, $rules, cast($tablemates as varchar[])) as d
    semi join split as s on d.session_id is not distinct from s.session_id
    group by d.session_id, d.player
    union all
    select session_id, player, min(seat) as seat, cast(sum(net) as bigint) as net
    from picked
    group by session_id, player
),

ranked as (
    select
        player,
        row_number() over (partition by session_id order by net desc, seat, player) as placement
    from per_session
    union all
    select player, placement
    from sums_in('mart_session_places', $club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    where placement is not null
),

per_player as (
    select
        player,
        count(*) as sessions,
        count(*) filter (where placement = 1) as placement_1,
        count(*) filter (where placement = 2) as placement_2,
        count(*) filter (where placement = 3) as placement_3,
        count(*) filter (where placement = 4) as placement_4,
        avg(placement) as avg_placement
    from ranked
    group by player
)

select
    player,
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
from per_player
where $player is null or player = $player
order by avg_placement, player;
