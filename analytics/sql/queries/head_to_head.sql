-- Points that flowed from each player to each other (every transfer of the ledger), and
-- the pair's net: what `to_player` gained from `from_player` less what went back.
-- Two exclusive branches (30_filters.sql): with no tablemates the sums come from
-- mart_flow_days (per pair, reason and day), else from the deals' transfers.
with pairs as (
    select
        payer_player as from_player,
        payee_player as to_player,
        cast(sum(points) as bigint) as points,
        cast(sum(transfers) as bigint) as transfers
    from sums_in('mart_flow_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    group by payer_player, payee_player
    union all
    select payer_player as from_player, payee_player as to_player, cast(sum(amount) as bigint) as points, count(*) as transfers
    from flows_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0
    group by payer_player, payee_player
)

select
    p.from_player,
    p.to_player,
    p.points,
    p.transfers,
    p.points - coalesce(back.points, 0) as net
from pairs as p
left join pairs as back on back.from_player = p.to_player and back.to_player = p.from_player
where $player is null or p.from_player = $player or p.to_player = $player
order by p.points desc, p.from_player, p.to_player;
