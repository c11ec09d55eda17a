-- The deals of one session in file order, with what the replay and the re-score need.
select
    deal_id,
    month,
    status,
    rules,
    base,
    players,
    dealer,
    end_reason,
    findings,
    finding_codes,
    scores,
    line,
    record
from stg_deals
where session_id = $session_id
order by file, line;
