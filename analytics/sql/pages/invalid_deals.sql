-- The deals not replayed to their end (status invalid) under the shared filters, each with
-- the finding that stopped it: the deal's last error finding (the illegal event, the
-- missing deal_end), else its session's rules finding (rule 'rules': none of its deals
-- was replayed). At most $limit rows, the latest first (the count is apart); deal_no is the
-- deal's number in its session (from 1), for "deal 3, step 12".
with deal_stop as (
    select
        deal_id,
        arg_max(code, line) as code,
        max(line) as line,
        arg_max(message, line) as message,
        arg_max(message_zh, line) as message_zh,
        arg_max(message_key, line) as message_key,
        arg_max(message_values, line) as message_values
    from stg_findings
    where scope = 'deal' and severity = 'error'
    group by deal_id
),

session_stop as (
    select
        session_id,
        any_value(code) as code,
        any_value(line) as line,
        any_value(message) as message,
        any_value(message_zh) as message_zh,
        any_value(message_key) as message_key,
        any_value(message_values) as message_values
    from stg_findings
    where scope = 'session' and rule = 'rules'
    group by session_id
)

select
    d.deal_id,
    d.session_id,
    d.played_date,
    d.file,
    d.line as deal_line,
    (
        select count(*) from stg_deals as n
        where n.session_id = d.session_id and n.line <= d.line
    ) as deal_no,
    coalesce(ds.code, ss.code) as code,
    coalesce(ds.line, ss.line) as line,
    coalesce(ds.message, ss.message) as message,
    coalesce(ds.message_zh, ss.message_zh) as message_zh,
    coalesce(ds.message_key, ss.message_key) as message_key,
    coalesce(ds.message_values, ss.message_values) as message_values,
    d.players,
    d.record as deal_record,
    case when ds.code is null and ss.code is not null then 'session' else 'deal' end as scope,
    count(*) over () as total
from stg_deals as d
left join deal_stop as ds using (deal_id)
left join session_stop as ss on d.session_id = ss.session_id
where d.status = 'invalid'
    and ($club is null or d.club = $club)
    and ($date_from is null or d.played_date >= $date_from)
    and ($date_to is null or d.played_date <= $date_to)
    and ($rules is null or d.rules = $rules)
    and ($seats is null or len(d.players) = $seats)
order by d.played_date desc nulls last, d.session_id, d.deal_id
limit $limit;
