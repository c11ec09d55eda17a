-- How often each pair of players shared a table, most frequent first.
with picked as (
    select deal_id, player, net
    from seat_deals_in($club, $date_from, $date_to, $rules, cast($tablemates as varchar[]))
)

select
    a.player,
    b.player as mate,
    count(*) as deals,
    cast(sum(a.net) as bigint) as net
from picked as a
join picked as b on a.deal_id = b.deal_id and a.player <> b.player
where $player is null or a.player = $player
group by a.player, b.player
order by deals desc, a.player, mate;
