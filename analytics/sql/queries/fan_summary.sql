-- One row: wins, average fan, 封顶率 (share of wins whose fan the cap cut) and roots.
with picked as (
    select *
    from seat_deals_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
    where won and ($player is null or player = $player)
)

select
    count(*) as wins,
    avg(fan) as avg_fan,
    avg(fan_uncapped) as avg_fan_uncapped,
    count(*) filter (where capped) as capped,
    case when count(*) > 0 then count(*) filter (where capped) / count(*) end as cap_rate,
    cast(sum(roots) as bigint) as roots,
    avg(roots) as avg_roots,
    count(*) filter (where roots > 0) as wins_with_roots,
    count(*) filter (where is_sheet) as sheet_wins  -- wins from score sheets, counted as any
from picked;
