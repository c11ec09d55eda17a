-- Wins by total fan after the cap: every win (血流成河: a seat's wins after its first too,
-- from win_fans). `capped` (封顶) is known for a seat's first win of a deal only.
-- Two exclusive branches (30_filters.sql): with no tablemates the counts come from
-- mart_fan_days (per player, fan and day), else from the deals' seat rows.
with picked as (
    select *
    from seat_deals_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0 and won and ($player is null or player = $player)
),

per_fan as (
    select fan, cast(sum(wins) as bigint) as wins, cast(sum(capped) as bigint) as capped
    from sums_in('mart_fan_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where $player is null or player = $player
    group by fan
    union all
    select f.fan, count(*) as wins, count(*) filter (where f.n = 1 and p.capped) as capped
    from picked as p,
        unnest(p.win_fans) with ordinality as f(fan, n)
    group by f.fan
)

select
    fan,
    wins,
    wins / sum(wins) over () as share,
    capped
from per_fan
order by fan;
