-- Wins by base pattern (the highest pattern; extras such as 根 are counted apart).
-- Two exclusive branches (30_filters.sql): with no tablemates the sums of mart_win_days,
-- else the same sums of the tablemates' deals' winning seats.
with win_sums as (
    select
        base_pattern, fan,
        cast(sum(wins) as bigint) as wins,
        cast(sum(points) as bigint) as points,
        cast(sum(points_count) as bigint) as points_count
    from sums_in('mart_win_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where $player is null or player = $player
    group by base_pattern, fan
    union all
    select base_pattern, fan, count(*) as wins, cast(sum(win_points) as bigint) as points, count(win_points) as points_count
    from seat_deals_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0 and won and ($player is null or player = $player)
    group by base_pattern, fan
)

select
    base_pattern,
    cast(sum(wins) as bigint) as wins,
    sum(wins) / sum(sum(wins)) over () as share,
    sum(fan * wins) filter (where fan is not null) / sum(wins) filter (where fan is not null) as avg_fan,
    sum(points) / nullif(sum(points_count), 0) as avg_win_points
from win_sums
group by base_pattern
order by wins desc, base_pattern;
