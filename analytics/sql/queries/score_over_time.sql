-- Net points per player and day, with the running total.
-- Two exclusive branches (30_filters.sql): with no tablemates the days of mart_player_days,
-- else the tablemates' deals' seats summed per player and day.
with daily as (
    select player, played_date, cast(sum(deals) as bigint) as deals, cast(sum(net) as bigint) as net
    from sums_in('mart_player_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where ($player is null or player = $player) and played_date is not null
    group by player, played_date
    union all
    select player, played_date, count(*) as deals, cast(sum(net) as bigint) as net
    from seat_deals_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0 and ($player is null or player = $player) and played_date is not null
    group by player, played_date
)

select
    player,
    played_date,
    deals,
    net,
    cast(sum(net) over (partition by player order by played_date) as bigint) as cumulative_net
from daily
order by player, played_date;
