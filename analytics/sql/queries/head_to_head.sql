-- Points that flowed from each player to each other (every transfer of the ledger), and
-- the pair's net: what `to_player` gained from `from_player` less what went back.
with picked as (
    select *
    from flows_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
),

pairs as (
    select payer_player as from_player, payee_player as to_player, cast(sum(amount) as bigint) as points, count(*) as transfers
    from picked
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
