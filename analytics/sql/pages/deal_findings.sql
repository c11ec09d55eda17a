-- The error findings ingest stored for one deal (the reader's, which its events cannot
-- show again: a broken line inside the deal, for one); every column, message_zh too where
-- the warehouse has it.
select *
from stg_findings
where deal_id = $deal_id and severity = 'error'
order by line, code;
