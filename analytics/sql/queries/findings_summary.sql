-- The one definition of the audit's counts, shared by every page and `chuanma stats`:
-- "findings" are the error findings of every scope (a deal's, a session total's, a line
-- outside any deal); "deals with findings" the distinct deals holding at least one (a deal
-- with several codes counts once); warnings are neither. Added: the deals by status (ok,
-- findings, invalid: not replayed to their end, counted apart and never as ok), so the
-- Overview, the Audit and `chuanma stats` show one count of each.
with statuses as (
    select
        count(*) filter (where status = 'ok') as ok_deals,
        count(*) filter (where status = 'findings') as findings_deals,
        count(*) filter (where status = 'invalid') as invalid_deals
    from stg_deals
    where ($club is null or club = $club)
        and ($date_from is null or played_date >= $date_from)
        and ($date_to is null or played_date <= $date_to)
        and ($rules is null or rules = $rules)
        and ($seats is null or len(players) = $seats)
),

counted as (
    select
        count(*) as findings,
        count(distinct deal_id) as deals_with_findings,
        count(distinct session_id) as sessions_with_findings,
        count(*) filter (where scope = 'session') as session_findings
    from findings_in($club, $date_from, $date_to, $rules, $seats)
    where severity = 'error'
)

select counted.*, statuses.*
from counted, statuses;
