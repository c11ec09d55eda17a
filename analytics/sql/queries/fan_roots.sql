-- Wins by number of roots (根).
-- Two exclusive branches (30_filters.sql): with no tablemates the sums of mart_win_days,
-- else the same sums of the tablemates' deals' winning seats.
with win_sums as (
    select roots, cast(sum(wins) as bigint) as wins
    from sums_in('mart_win_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where $player is null or player = $player
    group by roots
    union all
    select roots, count(*) as wins
    from seat_deals_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0 and won and ($player is null or player = $player)
    group by roots
)

select
    roots,
    cast(sum(wins) as bigint) as wins,
    sum(wins) / sum(sum(wins)) over () as share
from win_sums
group by roots
order by roots;
