-- Wins by number of roots (根).
with picked as (
    select *
    from seat_deals_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    where won and ($player is null or player = $player)
)

select
    roots,
    count(*) as wins,
    count(*) / sum(count(*)) over () as share
from picked
group by roots
order by roots;
