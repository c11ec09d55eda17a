-- One player's sessions under the shared filters, the latest first: the day, club, rule
-- set, the deals played and the player's net (the player page's recent nights, and its best
-- and worst). Read from mart_session_days (a few rows a session); with tablemates asked for,
-- from the seat rows of their deals.
with rows as (
    select session_id, played_date, club, rules, deals, net
    from sums_in('mart_session_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where player = $player
    union all
    select session_id, played_date, club, rules, 1 as deals, net
    from seat_deals_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0 and player = $player
)

select
    session_id,
    played_date,
    club,
    rules,
    cast(sum(deals) as bigint) as deals,
    cast(sum(net) as bigint) as net
from rows
group by session_id, played_date, club, rules
order by played_date desc nulls last, session_id desc;
