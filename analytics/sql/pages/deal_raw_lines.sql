-- The raw lines of a deal that could not be replayed to its end (kept in quarantine).
select line, raw
from stg_quarantine
where deal_id = $deal_id and reason = 'invalid'
order by line;
