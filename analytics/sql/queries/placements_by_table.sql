-- One row per player and table size (the session's players: 4, 3 or 2 seats): sessions
-- played at that size, placements 1st..4th (a three-player table has no 4th), their rates
-- and the average placement, so a club that plays three- and four-player tables compares
-- like with like. Ranked by session_ranks (30_filters.sql); the player filter applies
-- after the ranking.
with per_table as (
    select
        player,
        table_size,
        count(*) as sessions,
        count(*) filter (where placement = 1) as placement_1,
        count(*) filter (where placement = 2) as placement_2,
        count(*) filter (where placement = 3) as placement_3,
        count(*) filter (where placement = 4) as placement_4,
        avg(placement) as avg_placement
    from session_ranks($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
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
