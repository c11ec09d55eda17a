-- How often each pair of players shared a table, most frequent first, and the first
-- player's net in those deals.
-- Two exclusive branches (30_filters.sql): with no tablemates the sums come from
-- mart_pair_days (per pair of players and day), else from the deals' pairs.
with pairs as (
    select player, mate, cast(sum(deals) as bigint) as deals, cast(sum(net) as bigint) as net
    from sums_in('mart_pair_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where $player is null or player = $player
    group by player, mate
    union all
    select player, mate, count(*) as deals, cast(sum(net) as bigint) as net
    from pairs_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0 and ($player is null or player = $player)
    group by player, mate
)

select player, mate, deals, net
from pairs
order by deals desc, player, mate;
