-- Net points per player and day, with the running total.
with picked as (
    select *
    from seat_deals_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    where ($player is null or player = $player) and played_date is not null
),

daily as (
    select player, played_date, count(*) as deals, cast(sum(net) as bigint) as net
    from picked
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
