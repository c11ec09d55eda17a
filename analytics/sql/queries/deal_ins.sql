-- Where each player loses on wins: whom they dealt into (点炮, a robbed kong, 杠上炮's
-- transfer), how often, and the points paid.
-- Two exclusive branches (30_filters.sql): with no tablemates the sums come from
-- mart_flow_days (per pair, reason and day), else from the deals' transfers.
with days as (
    select *
    from sums_in('mart_flow_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where reason in ('win_discard', 'kong_transfer')
        and ($player is null or payer_player = $player)
),

picked as (
    select *
    from flows_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0
        and reason in ('win_discard', 'kong_transfer')
        and ($player is null or payer_player = $player)
)

select
    payer_player as player,
    payee_player as winner,
    cast(coalesce(sum(transfers) filter (where reason = 'win_discard'), 0) as bigint) as deal_ins,
    cast(sum(points) as bigint) as points
from days
group by payer_player, payee_player
union all
select
    payer_player as player,
    payee_player as winner,
    count(*) filter (where reason = 'win_discard') as deal_ins,
    cast(sum(amount) as bigint) as points
from picked
group by payer_player, payee_player
order by player, points desc, winner;
