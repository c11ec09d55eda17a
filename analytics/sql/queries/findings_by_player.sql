-- Audit: findings that name a seat, by the player in it.
select
    player,
    count(*) as findings,
    count(distinct deal_id) as deals,
    list_sort(list_distinct(list(code))) as codes
from findings_in($club, $date_from, $date_to, $rules, $seats)
where severity = 'error' and player is not null
group by player
order by findings desc, player;
