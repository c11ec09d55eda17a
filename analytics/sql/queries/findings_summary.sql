-- The one definition of the audit's counts, shared by every page and `chuanma stats`:
-- "findings" are the error findings of every scope (a deal's, a session total's, a line
-- outside any deal); "deals with findings" the distinct deals holding at least one (a deal
-- with several codes counts once); warnings are neither.
select
    count(*) as findings,
    count(distinct deal_id) as deals_with_findings,
    count(distinct session_id) as sessions_with_findings,
    count(*) filter (where scope = 'session') as session_findings
from findings_in($club, $date_from, $date_to, $rules)
where severity = 'error';
