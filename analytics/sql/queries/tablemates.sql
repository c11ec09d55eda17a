-- How often each pair of players shared a table, most frequent first, and the first
-- player's net in those deals.
select
    player,
    mate,
    count(*) as deals,
    cast(sum(net) as bigint) as net
from pairs_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
where $player is null or player = $player
group by player, mate
order by deals desc, player, mate;
