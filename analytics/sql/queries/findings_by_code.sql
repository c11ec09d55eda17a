-- Audit: findings by code (errors and warnings apart).
select
    code,
    severity,
    count(*) as findings,
    count(distinct deal_id) as deals,
    count(distinct session_id) as sessions
from findings_in($club, $date_from, $date_to, $rules, $seats)
group by code, severity
order by findings desc, code;
