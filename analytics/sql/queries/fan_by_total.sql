-- Wins by total fan after the cap: every win (血流成河: a seat's wins after its first too,
-- from win_fans). `capped` (封顶) is known for a seat's first win of a deal only.
with picked as (
    select *
    from seat_deals_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    where won and ($player is null or player = $player)
),

every_win as (
    select f.fan, f.n = 1 and p.capped as capped
    from picked as p,
        unnest(p.win_fans) with ordinality as f(fan, n)
)

select
    fan,
    count(*) as wins,
    count(*) / sum(count(*)) over () as share,
    count(*) filter (where capped) as capped
from every_win
group by fan
order by fan;
