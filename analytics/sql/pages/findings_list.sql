-- Every error finding (deal, session and file scope) under the shared filters, narrowed by
-- code, session and player, the latest first; at most $limit rows (the count is apart).
-- Every column of mart_findings (message_zh too, where the warehouse has it).
select
    *,
    count(*) over () as total
from findings_in($club, $date_from, $date_to, $rules, $seats)
where severity = 'error'
    and ($code is null or code = $code)
    and ($session_id is null or session_id = $session_id)
    and ($player is null or player = $player)
order by played_date desc nulls last, session_id, deal_id, line
limit $limit;
