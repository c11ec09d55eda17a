-- One deal's row and its session's header: what the replay needs before its events.
select
    d.deal_id,
    d.session_id,
    d.month,
    d.played_at,
    d.club,
    d."table",
    d.rules,
    d.base,
    d.dealer,
    d.players,
    d.status,
    d.end_reason,
    d.findings,
    d.finding_codes,
    d.scores,
    d.file,
    d.line,
    d.last_line,
    d.record
from stg_deals as d
where d.deal_id = $deal_id;
