-- The error findings ingest stored for one deal (the reader's, which its events cannot
-- show again: a broken line inside the deal, for one).
select code, line, seat, message, rule
from stg_findings
where deal_id = $deal_id and severity = 'error'
order by line, code;
