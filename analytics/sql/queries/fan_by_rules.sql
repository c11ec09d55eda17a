-- Wins by total fan under each rule set, with the share within the rule set, to compare
-- rule sets (a higher cap, other fan values).
with picked as (
    select *
    from seat_deals_in($club, $date_from, $date_to, null, cast($tablemates as varchar[]))
    where won and ($player is null or player = $player)
)

select
    rules,
    fan,
    count(*) as wins,
    count(*) / sum(count(*)) over (partition by rules) as share,
    count(*) filter (where capped) as capped,
    avg(roots) as avg_roots
from picked
group by rules, fan
order by rules, fan;
