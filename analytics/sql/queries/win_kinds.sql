-- How each player wins: wins by kind (自摸, 点炮, 抢杠, 杠上花, 杠上炮), share of the
-- player's wins, average fan and points.
with picked as (
    select *
    from seat_deals_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    where won and ($player is null or player = $player)
)

select
    player,
    win_kind,
    win_kind_zh,
    count(*) as wins,
    count(*) / sum(count(*)) over (partition by player) as share,
    avg(fan) as avg_fan,
    cast(sum(win_points) as bigint) as points
from picked
group by player, win_kind, win_kind_zh
order by player, wins desc, win_kind;
