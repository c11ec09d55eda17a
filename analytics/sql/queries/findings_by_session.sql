-- Audit: findings by session, with the codes seen.
select
    session_id,
    count(*) as findings,
    count(distinct deal_id) as deals,
    list_sort(list_distinct(list(code))) as codes
from findings_in($club, $date_from, $date_to, $rules, $seats)
where severity = 'error'
group by session_id
order by findings desc, session_id nulls last;
