-- One session's header (the first time its id was read): players, rules, base and the
-- totals its session_end line recorded, for the evening's result.
select
    session_id,
    played_at,
    club,
    "table",
    rules,
    base,
    players,
    deals,
    computed_totals,
    recorded_totals,
    findings
from stg_sessions
where session_id = $session_id
order by file, line
limit 1;
