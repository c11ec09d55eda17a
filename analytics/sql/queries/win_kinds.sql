-- How each player wins: wins by kind (自摸, 点炮, 抢杠, 杠上花, 杠上炮), share of the
-- player's wins, average fan and points.
-- Two exclusive branches (30_filters.sql): with no tablemates the sums of mart_win_days,
-- else the same sums of the tablemates' deals' winning seats.
with win_sums as (
    select player, win_kind, win_kind_zh, fan, cast(sum(wins) as bigint) as wins, cast(sum(points) as bigint) as points
    from sums_in('mart_win_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where $player is null or player = $player
    group by player, win_kind, win_kind_zh, fan
    union all
    select player, win_kind, win_kind_zh, fan, count(*) as wins, cast(sum(win_points) as bigint) as points
    from seat_deals_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0 and won and ($player is null or player = $player)
    group by player, win_kind, win_kind_zh, fan
)

select
    player,
    win_kind,
    win_kind_zh,
    cast(sum(wins) as bigint) as wins,
    sum(wins) / sum(sum(wins)) over (partition by player) as share,
    sum(fan * wins) filter (where fan is not null) / sum(wins) filter (where fan is not null) as avg_fan,
    cast(sum(points) as bigint) as points
from win_sums
group by player, win_kind, win_kind_zh
order by player, wins desc, win_kind;
