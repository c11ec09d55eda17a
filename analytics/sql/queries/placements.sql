-- One row per player: sessions played, placements 1st..4th (session_ranks in
-- 30_filters.sql: the tie rule), their rates and the average placement (lower is better),
-- every table size together (placements_by_table.sql keeps them apart; $seats picks one).
-- Added: which table sizes the row counts, table_sizes (sorted: [4], [3, 4]) and
-- table_size (the one size, null when the row mixes sizes: its 1st of three beside 1st of four).
with per_player as (
    select
        player,
        count(*) as sessions,
        count(*) filter (where placement = 1) as placement_1,
        count(*) filter (where placement = 2) as placement_2,
        count(*) filter (where placement = 3) as placement_3,
        count(*) filter (where placement = 4) as placement_4,
        avg(placement) as avg_placement,
        list_sort(list(distinct table_size)) as table_sizes
    from session_ranks($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
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
    placement_4 / sessions as placement_4_rate,
    table_sizes,
    case when len(table_sizes) = 1 then table_sizes[1] end as table_size
from per_player
where $player is null or player = $player
order by avg_placement, player;
