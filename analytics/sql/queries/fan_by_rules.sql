-- Wins by total fan under each rule set, with the share within the rule set, to compare
-- rule sets (a higher cap, other fan values).
-- Two exclusive branches (30_filters.sql): with no tablemates the sums of mart_win_days,
-- else the same sums of the tablemates' deals' winning seats.
with win_sums as (
    select rules, fan, roots, capped, cast(sum(wins) as bigint) as wins
    from sums_in('mart_win_days', $club, $date_from, $date_to, null, $seats, cast($tablemates as varchar[]))
    where $player is null or player = $player
    group by rules, fan, roots, capped
    union all
    select rules, fan, roots, capped, count(*) as wins
    from seat_deals_in($club, $date_from, $date_to, null, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0 and won and ($player is null or player = $player)
    group by rules, fan, roots, capped
)

select
    rules,
    fan,
    cast(sum(wins) as bigint) as wins,
    sum(wins) / sum(sum(wins)) over (partition by rules) as share,
    coalesce(cast(sum(wins) filter (where capped) as bigint), 0) as capped,
    sum(roots * wins) filter (where roots is not null) / sum(wins) filter (where roots is not null) as avg_roots
from win_sums
group by rules, fan
order by rules, fan;
