-- Every error finding (deal, session and file scope) under the shared filters, narrowed by
-- code, session and player, the latest first; at most $limit rows (the count is apart).
-- Every column of mart_findings (message_zh too, where the warehouse has it), and for a
-- deal's finding its deal's place: deal_line (the deal's own line in its file) and deal_no
-- (the deal's number in its session, from 1), so a page says "deal 3, step 12" and not
-- the line of a long file.
with listed as (
    select
        *,
        count(*) over () as total
    from findings_in($club, $date_from, $date_to, $rules, $seats)
    where severity = 'error'
        and ($code is null or code = $code)
        and ($session_id is null or session_id = $session_id)
        and ($player is null or player = $player)
    order by played_date desc nulls last, session_id, deal_id, line
    limit $limit
),

numbered as (
    select
        deal_id,
        line as deal_line,
        row_number() over (partition by session_id order by line, deal_id) as deal_no
    from stg_deals
    where session_id in (select session_id from listed)
)

select
    l.*,
    n.deal_line,
    n.deal_no
from listed as l
left join numbered as n on l.scope = 'deal' and l.deal_id = n.deal_id
order by l.played_date desc nulls last, l.session_id, l.deal_id, l.line;
