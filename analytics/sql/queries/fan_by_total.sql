-- Wins by total fan after the cap.
with picked as (
    select *
    from seat_deals_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    where won and ($player is null or player = $player)
)

select
    fan,
    count(*) as wins,
    count(*) / sum(count(*)) over () as share,
    count(*) filter (where capped) as capped
from picked
group by fan
order by fan;
