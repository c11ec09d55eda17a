-- Wins by base pattern (the highest pattern; extras such as 根 are counted apart).
with picked as (
    select *
    from seat_deals_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    where won and ($player is null or player = $player)
)

select
    base_pattern,
    count(*) as wins,
    count(*) / sum(count(*)) over () as share,
    avg(fan) as avg_fan,
    avg(win_points) as avg_win_points
from picked
group by base_pattern
order by wins desc, base_pattern;
