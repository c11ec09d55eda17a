-- 复盘 of a warehouse (chuanma review --warehouse, GET /v1/players/{player}/review): the
-- complete deals a review covers under the shared filters (one player's when $player is
-- given), oldest first; with $newest only the newest that many, still oldest first.
with picked as (
    select deal_id, any_value(played_date) as played_date
    from mart_review_seats
    where kept_by($club, $date_from, $date_to, $rules, $seats, club, played_date, rules, seats)
        and ($player is null or player = $player)
    group by deal_id
    order by played_date desc nulls last, deal_id desc
    limit coalesce($newest, 1000000000)
)

select deal_id
from picked
order by played_date nulls first, deal_id;
